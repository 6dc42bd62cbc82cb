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
#include <stdio.h>
#include <string.h>

#include "alloc.h"
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
	unsigned n = rs_nodes_count(s), elem;
	size_t len;
	int k = rs_count_parse(id, &len, &elem);

	/* A set's elements are in a row: one step past each. */
	for (unsigned i = 0; i < n;) {
		const struct rs_node_decl *nd = &s->top->nodes[i];

		if (!nd->group) {
			if (!strcmp(nd->id, id))
				return (int)i;
			i++;
			continue;
		}
		if (k == 1 && strlen(nd->group) == len &&
		    !memcmp(nd->group, id, len))
			return elem < nd->n_elems ? (int)(i + elem) :
			       RS_NODE_ANY;
		i += nd->n_elems;
	}
	return RS_NODE_ANY;
}

int rs_node_set_find(const struct rs_scenario *s, const char *id,
		     unsigned *ret_n)
{
	unsigned n = rs_nodes_count(s);

	for (unsigned i = 0; i < n;) {
		const struct rs_node_decl *nd = &s->top->nodes[i];

		if (!nd->group) {
			i++;
			continue;
		}
		if (!strcmp(nd->group, id)) {
			*ret_n = nd->n_elems;
			return (int)i;
		}
		i += nd->n_elems;
	}
	return -1;
}

void rs_nodes_list(const struct rs_scenario *s, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < rs_nodes_count(s) && o < len; i++)
		o += snprintf(buf + o, len - o, "%s%s", i ? ", " : "",
			      s->top->nodes[i].id);
}

/* Where `nodes:` entry @i, or its field @key, is. */
#define decl_loc(s, i, key) rs_doc_entry_loc(&(s)->doc, "nodes", (i), (key))

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

/* A host range in an address: '[' and ']' at @open and @close, the
 * numbers from @lo to @hi, each printed @width digits wide at least. */
struct range {
	size_t open, close;
	unsigned long lo, hi;
	int width;
};

#define RANGE_FORM "has a range that is not [FIRST-LAST], as in node[01-16]"

/*
 * The host range in @addr: "node[01-16]" or "node[01-16]:7000", the
 * numbers as Slurm writes them, zero padding kept ("01" pads to 2). A
 * '[' that starts the address opens an IPv6 address ("[::1]:7000"), not
 * a range.  0 and *@ret, 1 when there is none, or -EINVAL with *@why.
 */
static int find_range(const char *addr, struct range *ret, const char **why)
{
	const char *p = addr[0] == '[' ? strchr(addr, ']') : addr;
	const char *q, *dash, *end;
	char *e;

	p = p ? strchr(p, '[') : NULL;
	if (!p)
		return 1;
	q = p + 1;
	dash = q + strspn(q, "0123456789");
	end = dash + 1 + strspn(dash + 1, "0123456789");
	if (dash == q || *dash != '-' || end == dash + 1 || *end != ']') {
		*why = RANGE_FORM;
		return -EINVAL;
	}
	errno = 0;
	ret->lo = strtoul(q, &e, 10);
	ret->hi = strtoul(dash + 1, &e, 10);
	if (errno || ret->hi < ret->lo) {
		*why = "has a range whose last number is below its first";
		return -EINVAL;
	}
	if (ret->hi - ret->lo >= RS_COUNT_MAX) {
		*why = "has a range of more hosts than a node set may hold";
		return -EINVAL;
	}
	if (strchr(end + 1, '[')) {
		*why = "has two ranges: one makes a node set";
		return -EINVAL;
	}
	ret->open = (size_t)(p - addr);
	ret->close = (size_t)(end - addr);
	ret->width = (int)(dash - q);
	return 0;
}

/* The address of element @k of a range @r in @addr, in @buf. */
static void range_host(const char *addr, const struct range *r, unsigned k,
		       char *buf, size_t len)
{
	snprintf(buf, len, "%.*s%0*lu%s", (int)r->open, addr, r->width,
		 r->lo + k, addr + r->close + 1);
}

/* @d's given count, when its text is a whole number (libcyaml reads
 * "2.5" as 2): 0 and *@ret (0: none), or -EINVAL reported. */
static int decl_count(const struct rs_scenario *s, unsigned i,
		      unsigned *ret, struct rs_diag *d)
{
	const struct rs_node_decl *n = &s->nodes_decl[i];
	const struct rs_node *v = rs_node_get(&rs_node_get(s->doc.root,
					      "nodes")->items[i], "count");

	*ret = 0;
	if (!v)
		return 0;
	if (v->type != RS_NODE_SCALAR || !v->value || !v->value[0] ||
	    strspn(v->value, "0123456789") != strlen(v->value) ||
	    (v->value[0] == '0' && v->value[1]) || n->count < 1 ||
	    n->count > RS_COUNT_MAX) {
		rs_diag_error(d, rs_node_loc(v),
			      "node '%s': count: expected a whole "
			      "number from 1 to %u, got '%s'", n->id,
			      RS_COUNT_MAX, rs_node_text(v) ? v->value : "");
		return -EINVAL;
	}
	*ret = n->count;
	return 0;
}

/* Declaration @i's ids and address, and how many nodes it makes (its
 * count, its range's length, else 1): 0 and *@ret_n (with *@ret_r the
 * range, *@ret_ranged set), or -EINVAL reported. */
static int check_decl(const struct rs_scenario *s, unsigned i,
		      unsigned *ret_n, struct range *ret_r, bool *ret_ranged,
		      struct rs_diag *d)
{
	const struct rs_node_decl *n = &s->nodes_decl[i];
	const char *why = NULL;
	unsigned count;
	int r = 0, k;

	for (unsigned j = 0; j < i; j++)
		if (!strcmp(s->nodes_decl[j].id, n->id)) {
			rs_diag_error(d, decl_loc(s, i, "id"), "node '%s': "
				      "id: already names a node (at line %u)",
				      n->id, decl_loc(s, j, "id")->line);
			r = -EINVAL;
			break;
		}
	if (strchr(n->id, '[') || strchr(n->id, ' ')) {
		rs_diag_error(d, decl_loc(s, i, "id"), "node '%s': id: a "
			      "node's name cannot hold '[' or a space",
			      n->id);
		r = -EINVAL;
	}
	if (decl_count(s, i, &count, d) < 0)
		return -EINVAL;
	*ret_ranged = false;
	*ret_n = count ? count : 1;
	if (!n->address)
		return r;
	k = find_range(n->address, ret_r, &why);
	if (k == 0) {
		unsigned long len = ret_r->hi - ret_r->lo + 1;
		char first[300];

		if (count && len != count) {
			const struct rs_loc *at = decl_loc(s, i, "count");

			rs_diag_error(d, decl_loc(s, i, "address"), "node "
				      "'%s': address: '%s' is %lu hosts, but "
				      "count: is %u (at %u:%u): give one, or "
				      "make them equal", n->id, n->address,
				      len, count, at->line, at->col);
			return -EINVAL;
		}
		*ret_ranged = true;
		*ret_n = (unsigned)len;
		range_host(n->address, ret_r, 0, first, sizeof(first));
		why = address_bad(first);
	} else if (k == 1) {
		why = address_bad(n->address);
	}
	if (why) {
		rs_diag_error(d, decl_loc(s, i, "address"), "node '%s': "
			      "address: '%s' %s", n->id, n->address, why);
		r = -EINVAL;
	}
	return r;
}

int rs_nodes_expand(struct rs_scenario *s, struct rs_diag *d)
{
	unsigned n_decl = rs_nodes_count(s), total = 0, at = 0;
	struct rs_node_decl *list;
	struct range *ranges;
	unsigned *counts;
	bool *ranged, set = false;
	int r = -ENOMEM;

	if (!n_decl)
		return 0;
	s->nodes_decl = s->top->nodes;
	s->n_nodes_decl = n_decl;
	ranges = rs_calloc(n_decl, sizeof(*ranges));
	counts = rs_calloc(n_decl, sizeof(*counts));
	ranged = rs_calloc(n_decl, sizeof(*ranged));
	if (!ranges || !counts || !ranged)
		goto out;
	r = 0;
	for (unsigned i = 0; i < n_decl; i++) {
		s->nodes_decl[i].decl = i;
		if (check_decl(s, i, &counts[i], &ranges[i], &ranged[i], d) < 0)
			r = -EINVAL;
		total += counts[i];
		set |= s->nodes_decl[i].count || ranged[i];
	}
	if (r < 0 || !set)
		goto out;
	if (total > RS_COUNT_MAX) {
		rs_diag_error(d, decl_loc(s, n_decl - 1, "count"), "nodes: "
			      "%u nodes in all, more than the %u a scenario "
			      "may hold", total, RS_COUNT_MAX);
		r = -EINVAL;
		goto out;
	}
	r = -ENOMEM;
	list = rs_scenario_block(s, total * sizeof(*list));
	if (!list)
		goto out;
	for (unsigned i = 0; i < n_decl; i++) {
		const struct rs_node_decl *nd = &s->nodes_decl[i];
		bool counted = nd->count || ranged[i];
		size_t idl = strlen(nd->id) + 16;
		size_t al = nd->address ? strlen(nd->address) + 16 : 0;
		char *ids = counted ? rs_scenario_block(s, idl * counts[i]) :
			    NULL;
		char *addrs = ranged[i] ? rs_scenario_block(s, al * counts[i]) :
			      NULL;

		if ((counted && !ids) || (ranged[i] && !addrs))
			goto out;
		for (unsigned k = 0; k < counts[i]; k++, at++) {
			struct rs_node_decl *e = &list[at];

			*e = *nd;
			e->decl = i;
			if (!counted)
				continue;
			e->group = nd->id;
			e->elem = k;
			e->n_elems = counts[i];
			snprintf(ids + idl * k, idl, "%s[%u]", nd->id, k);
			e->id = ids + idl * k;
			if (ranged[i]) {
				range_host(nd->address, &ranges[i], k,
					   addrs + al * k, al);
				e->address = addrs + al * k;
			}
		}
	}
	s->top->nodes = list;
	s->top->nodes_count = total;
	r = 0;
out:
	rs_free(ranged);
	rs_free(counts);
	rs_free(ranges);
	return r;
}

/* Where @o's own `node:` puts it: 0 and *@ret (RS_NODE_ANY: none
 * given), or -EINVAL reported. */
static int given(const struct rs_scenario *s, const struct rs_obj *o,
		 int *ret, struct rs_diag *d)
{
	const char *id = o->kind->step ? NULL : rs_obj_node_id(s, o);
	char names[512];

	*ret = RS_NODE_ANY;
	if (!id)
		return 0;
	if (!rs_nodes_count(s)) {
		rs_obj_error(d, o, "node", "'%s' names a node, but the "
			     "scenario declares none (nodes: [{id: %s}, "
			     "...])", id, id);
		return -EINVAL;
	}
	*ret = rs_node_find(s, id);
	if (*ret == RS_NODE_ANY) {
		rs_nodes_list(s, names, sizeof(names));
		rs_obj_error(d, o, "node", "no node '%s' (nodes: %s)",
			     id, names);
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
			rs_obj_error(d, o, rs_edge_field(o, e), "'%s' is on node '%s', "
				     "but %s '%s' is on node '%s'; only a "
				     "connection's QPs and a step's remote "
				     "MR or peer may be on another node",
				     target_name(t), rs_node_name(s, t->on),
				     rs_edge_field(o, why),
				     target_name(why->to),
				     rs_node_name(s, on));
			return -EINVAL;
		} else if (t->on != on) {
			rs_obj_error(d, o, rs_edge_field(o, e), "'%s' is on node '%s', "
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
			rs_obj_error(d, o, rs_edge_field(o, e), "'%s' is on node '%s', "
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
	int r = 0, on;

	for (unsigned i = 0; i < s->n_objs; i++)
		s->objs[i].on = s->objs[i].on_peer = RS_NODE_ANY;
	/* No nodes (nearly every file): nothing is placed, and place()
	 * could only refuse a `node:`, which given() does. */
	if (!rs_nodes_count(s)) {
		for (unsigned i = 0; i < s->n_objects &&
		     d->errors < RS_MAX_ERRORS; i++)
			if (given(s, s->create[i], &on, d) < 0)
				r = -EINVAL;
		return r;
	}
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
