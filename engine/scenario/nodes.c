// SPDX-License-Identifier: MIT
/*
 * `nodes:`: which process of a run makes each object and runs each step.
 * A context (or any object) names its node with `node:`; every other
 * object follows what it refers to, and a step runs where its QP lives.
 * Only references meant to cross (rdmascn_ref.spans: a connection's two
 * QPs, a step's remote MR or peer QP) may reach another node; any other
 * pair of references that disagree is an error at the second one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

const char *rs_node_name(const struct rs_scenario *s, int i)
{
	return i >= 0 && (unsigned)i < rs_nodes_count(s) ?
	       s->top->nodes[i].id : "";
}

const char *rs_node_device(const struct rs_scenario *s, int i)
{
	return i >= 0 && (unsigned)i < rs_nodes_count(s) ?
	       s->top->nodes[i].device : NULL;
}

int rs_node_find(const struct rs_scenario *s, const char *id)
{
	for (unsigned i = 0; i < rs_nodes_count(s); i++)
		if (!strcmp(s->top->nodes[i].id, id))
			return (int)i;
	return RS_NODE_ANY;
}

void rs_nodes_list(const struct rs_scenario *s, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < rs_nodes_count(s) && o < len; i++)
		o += snprintf(buf + o, len - o, "%s%s", i ? ", " : "",
			      s->top->nodes[i].id);
}

static const struct rs_loc *decl_loc(const struct rs_scenario *s,
				     unsigned i, const char *key)
{
	struct rs_node *seq = rs_node_get(s->doc.root, "nodes");
	struct rs_node *n = seq && i < seq->n ? seq->items[i] : NULL;
	struct rs_node *v = n ? rs_node_get(n, key) : NULL;

	return v ? &v->loc : n ? &n->loc : &s->doc.root->loc;
}

/*
 * A node's address as the rendezvous reads it (docs/nodes.md): "host",
 * "host:port", "[ipv6]" or "[ipv6]:port", the port 1 to 65535.  NULL,
 * or what is wrong with it.
 */
static const char *address_bad(const char *text)
{
	const char *colon, *host_end;
	char *end;
	unsigned long p;

	if (strchr(text, ' '))
		return "is not a host name or an IP address";
	if (text[0] == '[') {
		host_end = strchr(text, ']');
		if (!host_end || host_end == text + 1)
			return "has no closing ']' after an IPv6 address";
		if (host_end[1] && host_end[1] != ':')
			return "has more after ']' than ':PORT'";
		colon = host_end[1] ? host_end + 1 : NULL;
	} else {
		colon = strchr(text, ':');
		if (colon && strchr(colon + 1, ':'))
			return "holds an IPv6 address without [ ]: write "
			       "[ADDRESS] or [ADDRESS]:PORT";
		if (colon == text || !text[0])
			return "has no host";
	}
	if (!colon)
		return NULL;
	if (colon[1] < '0' || colon[1] > '9')
		return "has no port number after ':'";
	errno = 0;
	p = strtoul(colon + 1, &end, 10);
	if (*end)
		return "has a port that is not a number";
	if (errno || p < 1 || p > 65535)
		return "has a port out of range (1 to 65535)";
	return NULL;
}

static int check_decls(const struct rs_scenario *s, struct rs_diag *d)
{
	int r = 0;

	for (unsigned i = 0; i < rs_nodes_count(s); i++) {
		const struct rs_node_decl *n = &s->top->nodes[i];
		int first = rs_node_find(s, n->id);

		if (first != (int)i) {
			rs_diag_error(d, decl_loc(s, i, "id"), "node '%s': "
				      "id: already names a node (at line %u)",
				      n->id, decl_loc(s, first, "id")->line);
			r = -EINVAL;
		}
		if (strchr(n->id, '[') || strchr(n->id, ' ')) {
			rs_diag_error(d, decl_loc(s, i, "id"), "node '%s': "
				      "id: a node's name cannot hold '[' or "
				      "a space", n->id);
			r = -EINVAL;
		}
		if (n->address && address_bad(n->address)) {
			rs_diag_error(d, decl_loc(s, i, "address"), "node "
				      "'%s': address: '%s' %s", n->id,
				      n->address, address_bad(n->address));
			r = -EINVAL;
		}
	}
	return r;
}

/* Where @o's own `node:` puts it: 0 and *@ret (RS_NODE_ANY: none
 * given), or -EINVAL reported. */
static int given(const struct rs_scenario *s, const struct rs_obj *o,
		 int *ret, struct rs_diag *d)
{
	char names[512];

	*ret = RS_NODE_ANY;
	if (o->kind->step || !o->node_id)
		return 0;
	if (!rs_nodes_count(s)) {
		rs_obj_error(d, o, "node", "'%s' names a node, but the "
			     "scenario declares none (nodes: [{id: %s}, "
			     "...])", o->node_id, o->node_id);
		return -EINVAL;
	}
	*ret = rs_node_find(s, o->node_id);
	if (*ret == RS_NODE_ANY) {
		rs_nodes_list(s, names, sizeof(names));
		rs_obj_error(d, o, "node", "no node '%s' (nodes: %s)",
			     o->node_id, names);
		return -EINVAL;
	}
	return 0;
}

static const char *target_name(const struct rs_obj *t)
{
	return t->id ? t->id : t->no;
}

static int place(struct rs_scenario *s, struct rs_obj *o, struct rs_diag *d)
{
	const struct rs_edge *why = NULL;
	int on, far = RS_NODE_ANY;
	char names[512];

	if (given(s, o, &on, d) < 0)
		return -EINVAL;
	for (unsigned i = 0; i < o->n_edges; i++) {
		const struct rs_edge *e = &o->edges[i];
		const struct rs_obj *t = e->to;

		if (e->order_only || e->spans || t->on == RS_NODE_ANY)
			continue;
		if (on == RS_NODE_ANY) {
			on = t->on;
			why = e;
		} else if (t->on != on && why) {
			rs_obj_error(d, o, e->field, "'%s' is on node '%s', "
				     "but %s '%s' is on node '%s'; only a "
				     "connection's QPs and a step's remote "
				     "MR or peer may be on another node",
				     target_name(t), rs_node_name(s, t->on),
				     why->field, target_name(why->to),
				     rs_node_name(s, on));
			return -EINVAL;
		} else if (t->on != on) {
			rs_obj_error(d, o, e->field, "'%s' is on node '%s', "
				     "but this %s is on node '%s' (its "
				     "node:)", target_name(t),
				     rs_node_name(s, t->on), o->kind->name,
				     rs_node_name(s, on));
			return -EINVAL;
		}
	}
	/* What may cross: a connection is on its first QP's node. */
	for (unsigned i = 0; i < o->n_edges; i++) {
		const struct rs_edge *e = &o->edges[i];
		int t = e->to->on;

		if (e->order_only || !e->spans || t == RS_NODE_ANY)
			continue;
		if (on == RS_NODE_ANY)
			on = t;
		else if (t != on && far == RS_NODE_ANY)
			far = t;
		else if (t != on && t != far) {
			rs_obj_error(d, o, e->field, "'%s' is on node '%s', "
				     "a third node: a %s joins two",
				     target_name(e->to), rs_node_name(s, t),
				     o->kind->step ? "step" : o->kind->name);
			return -EINVAL;
		}
	}
	if (on == RS_NODE_ANY && !o->kind->step && rs_nodes_count(s) == 1)
		on = 0;
	if (on == RS_NODE_ANY && !o->kind->step && rs_nodes_count(s)) {
		rs_nodes_list(s, names, sizeof(names));
		rs_obj_error(d, o, NULL, "on which node? give node: (one of "
			     "%s)", names);
		return -EINVAL;
	}
	o->on = on;
	o->on_peer = far;
	return 0;
}

int rs_nodes_place(struct rs_scenario *s, struct rs_diag *d)
{
	int r = check_decls(s, d);

	for (unsigned i = 0; i < s->n_objs; i++)
		s->objs[i].on = s->objs[i].on_peer = RS_NODE_ANY;
	if (r < 0)
		return r;
	/* In creation and step order: what an object refers to is placed
	 * before it. */
	for (unsigned i = 0; i < s->n_objects && d->errors < RS_MAX_ERRORS; i++)
		if (place(s, s->create[i], d) < 0)
			r = -EINVAL;
	for (unsigned i = 0; i < s->n_steps && d->errors < RS_MAX_ERRORS; i++)
		if (place(s, s->steps[i], d) < 0)
			r = -EINVAL;
	return r;
}

bool rs_step_on(const struct rs_obj *o, int i)
{
	const struct rs_obj *peer;

	if (i == RS_NODE_ANY || o->on == RS_NODE_ANY || o->on == i)
		return true;
	if (o->on_peer != i)
		return false;
	/* A pingpong's peer answers; a ud_send's `to` counts what it
	 * receives. */
	peer = rs_obj_target(o, "peer");
	if (!peer)
		peer = rs_obj_target(o, "to");
	return peer && peer->on == i;
}
