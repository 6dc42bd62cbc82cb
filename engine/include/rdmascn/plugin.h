/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_PLUGIN_H_PUBLIC
#define RDMASCN_PLUGIN_H_PUBLIC

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The plugin ABI.  A plugin is a shared object in the plugin directory;
 * rdmascn dlopen()s it and the plugin's constructor calls the registration
 * function below.  The ABI version is part of that symbol's name, so a
 * plugin built for another ABI fails to load with an undefined symbol
 * instead of misreading a structure.  A plugin exports nothing itself.
 *
 * Bump RDMASCN_PLUGIN_ABI, and the symbol's name with it, whenever the
 * layout of struct rdmascn_plugin, struct rdmascn_feature or of what
 * rdmascn/kind.h declares changes.
 */

struct ibv_context;
struct ibv_device;
struct rs_val;
struct rs_obj;
struct rs_diag;
struct rs_run;
struct rs_live;
struct rdmascn_kind;
struct rs_cq_rt;
struct ibv_cq_ex;
struct ibv_comp_channel;
struct ibv_qp;
struct rdmascn_wr_dest;
struct rdmascn_wr_reg;

#define RDMASCN_PLUGIN_ABI 6

/* A device feature a plugin can tell: a word of `requires: {features:}`. */
struct rdmascn_feature {
	/* "devx".  A word the core already knows (mlx5dv, devx) is that
	 * feature; a new one is a word of requires.features for as long as
	 * the plugin is loaded. */
	const char *name;
	/* What decides it, named when a scenario is skipped for lack of it:
	 * "mlx5dv_open_device(MLX5DV_CONTEXT_FLAGS_DEVX)".  May be NULL. */
	const char *source;
};

/* Features one plugin can tell: bit i of a mask is features[i]. */
#define RDMASCN_PLUGIN_FEATURES_MAX 64

struct rdmascn_plugin {
	const char *name;
	const char *version;
	/* Add what the plugin knows of an open device to its description
	 * (the object printed by `rdmascn devices`).  May be NULL. */
	void (*describe_device)(struct ibv_context *ctx, struct rs_val *dev);
	/* Object kinds and step types the plugin adds, NULL-terminated. */
	const struct rdmascn_kind *const *kinds;
	/* The device features the plugin can tell, ending with { NULL }. */
	const struct rdmascn_feature *features;
	/* Which of @features the device behind @ctx has, when a context
	 * probes its device and for `rdmascn devices`: bit i of *ret_have
	 * for features[i].  0, or -errno (then the device has none of
	 * them).  May be NULL when @features is. */
	int (*device_features)(struct ibv_context *ctx, uint64_t *ret_have);
};

void rdmascn_register_plugin_v6(const struct rdmascn_plugin *plugin);
/* ABI 5 addition: QPs of a kind that address each send WR (struct
 * rdmascn_wr_dest in rdmascn/kind.h); from the plugin's constructor,
 * @d outliving the plugin. */
void rdmascn_register_wr_dest_v6(const struct rdmascn_wr_dest *d);
/* ABI 5 addition: objects of a kind that a WR of their own registers
 * (struct rdmascn_wr_reg in rdmascn/kind.h: mlx5's mkeys), posted by
 * the `register_layout` step; from the constructor, @r outliving the
 * plugin. */
void rdmascn_register_wr_reg_v6(const struct rdmascn_wr_reg *r);

/*
 * What a plugin's kinds call (ABI 5), the engine's objects staying
 * opaque.  While a scenario is checked (a kind's check()): the object's
 * data as libcyaml filled it, an object it references, and an error at
 * one of its fields, dotted ("set[2].value"; NULL: the object), printed
 * FILE:LINE:COL.
 */
void *rdmascn_obj_data(const struct rs_obj *obj);
/* The data of the object @obj names @id by (its references are resolved
 * before check() runs); NULL when it names no such object. */
void *rdmascn_obj_ref_data(const struct rs_obj *obj, const char *id);
/* ABI 5 addition: the number an object @obj names by @id gives in its
 * field @field (an unsigned integer of its kind's schema: an mr's
 * "length"), after ${...} were expanded; 0, or -ENOENT when there is no
 * such object or field or the file does not give it. */
int rdmascn_obj_ref_uint(const struct rs_obj *obj, const char *id,
			 const char *field, uint64_t *ret);
/* ABI 6 additions: an object's kind; the object that the object @obj
 * names by @id names in its own reference field @field (a pd's
 * "context"), NULL when none: what a kind checks of its references'
 * references (an mkey's pd on a DevX context). */
const struct rdmascn_kind *rdmascn_obj_kind(const struct rs_obj *obj);
const struct rs_obj *rdmascn_obj_ref_ref(const struct rs_obj *obj,
					 const char *id, const char *field);
void rdmascn_obj_error(struct rs_diag *d, const struct rs_obj *obj,
		       const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * A plugin's own names (a DevX command, a PRM field) get the "did you
 * mean" the core's do: of the names name_at(arg, i, tmp, tmp_len) gives
 * for i = 0, 1, ... until NULL (built in @tmp, or static), the ones
 * nearest @word, as ", did you mean 'x'?" into @buf (always terminated),
 * else "".  Returns its length.
 */
size_t rdmascn_did_you_mean(const char *word,
			    const char *(*name_at)(void *arg, unsigned i,
						   char *tmp, size_t tmp_len),
			    void *arg, char *buf, size_t len);

/* On a device (a kind's ops): the object's data, its runtime state
 * (ops->rt_size bytes), its id; another object by id (NULL: none); the
 * device of the context it stands on (NULL in a dry run, which opens
 * none); whether that device has a feature word (mlx5dv, devx, ...);
 * whether this is a dry run; an error at the object's FILE:LINE:COL,
 * returning -@err. */
const void *rdmascn_live_data(const struct rs_live *l);
void *rdmascn_live_rt(struct rs_live *l);
const char *rdmascn_live_id(const struct rs_live *l);
struct rs_live *rdmascn_live_find(struct rs_run *run, const char *id);
struct ibv_device *rdmascn_live_device(struct rs_run *run,
				       struct rs_live *l);
bool rdmascn_live_has_feature(struct rs_run *run, struct rs_live *l,
			      const char *feature);
bool rdmascn_dry_run(const struct rs_run *run);
int rdmascn_live_error(struct rs_run *run, struct rs_live *l, int err,
		       const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Added within ABI 5 (functions only, no layout changed): a plugin's
 * object made on the verbs context core objects use, so that they can
 * share it (a QP on that context's PD completing into an mlx5 CQ).  The
 * ibv_context @l stands on: that of the nearest object on its
 * references offering as_context (ABI 6: a core context, an mlx5
 * context); NULL when none is open, as in a dry run.
 */
struct ibv_context *rdmascn_live_verbs_context(struct rs_run *run,
					       struct rs_live *l);
/*
 * A CQ a plugin made, as the steps and core QPs see a CQ (the facet
 * as_cq's rt): @cq_ex (its ibv_cq through ibv_cq_ex_to_cq()), @channel
 * (non-blocking, or NULL), the @wc_flags it was created with.  NULL when
 * out of memory.  rdmascn_cq_rt_free() acks the events the steps took
 * and did not ack, and frees it: call it before destroying the CQ.
 */
struct rs_cq_rt *rdmascn_cq_rt_new(struct ibv_cq_ex *cq_ex,
				   struct ibv_comp_channel *channel,
				   uint64_t wc_flags);
void rdmascn_cq_rt_free(struct rs_cq_rt *rt);
/* The verbs QP of an object that is a QP (the facet as_qp: a core qp,
 * a plugin's), a flow's destination: NULL when it is none or not made
 * (a dry run). */
struct ibv_qp *rdmascn_live_ibv_qp(struct rs_run *run, struct rs_live *l);

/*
 * The engine's call wrapper, as the core kinds use it: every call that
 * makes, changes or releases something is printed by a dry run and -v
 * with its arguments, numbered, failed on demand by RDMASCN_FAULT, and
 * reported at the object's FILE:LINE:COL when it fails:
 *
 *	struct rdmascn_call *c = rdmascn_call_new(RDMASCN_CALL_CREATE,
 *						  "mlx5dv_devx_obj_create");
 *	rdmascn_call_arg(c, "in", "%s", hex);
 *	if (rdmascn_call_go(run, l, c)) {
 *		rt->obj = mlx5dv_devx_obj_create(ctx, in, inlen, out, outlen);
 *		rdmascn_call_result(c, rt->obj ? 0 : errno);
 *	}
 *	return rdmascn_call_done(run, l, c);
 *
 * rdmascn_call_new() returns NULL when out of memory; the others take
 * that NULL (go: false; done: -ENOMEM).  @name must outlive the call (a
 * literal).  go: true means make the call now and give its result;
 * false: do not (a dry run, or a fault injected).  done reports a
 * failure, frees the call and returns 0 or -errno.
 */
enum rdmascn_call_class {
	RDMASCN_CALL_CREATE,
	RDMASCN_CALL_MODIFY,
	RDMASCN_CALL_QUERY,
	RDMASCN_CALL_DESTROY,
};
struct rdmascn_call;

struct rdmascn_call *rdmascn_call_new(enum rdmascn_call_class cls,
				      const char *name);
void rdmascn_call_arg(struct rdmascn_call *c, const char *key,
		      const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void rdmascn_call_hint(struct rdmascn_call *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
bool rdmascn_call_go(struct rs_run *run, struct rs_live *l,
		     struct rdmascn_call *c);
void rdmascn_call_result(struct rdmascn_call *c, int err);
int rdmascn_call_done(struct rs_run *run, struct rs_live *l,
		      struct rdmascn_call *c);

/*
 * ABI 6 additions: a plugin's calls shown as the core's are.  IBV_ACCESS_*
 * bits as the language names them ("local_write|remote_read", "0"), into
 * @buf, returned; an ibv_qp_state's name ("RTS"); the attributes @mask
 * names of an ibv_modify_qp() call, as its arguments (a NULL @c is
 * taken).
 */
struct ibv_qp_attr;
const char *rdmascn_access_text(uint64_t access, char *buf, size_t len);
const char *rdmascn_qp_state_name(int state);
void rdmascn_qp_attr_args(struct rdmascn_call *c,
			  const struct ibv_qp_attr *attr, int mask);

#endif
