/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_PLUGIN_H_PUBLIC
#define RDMASCN_PLUGIN_H_PUBLIC

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The plugin ABI (rdmascn-plugin(7) tells its history).  A plugin is a
 * shared object in the plugin directory that exports nothing; rdmascn
 * dlopen()s it and the plugin's constructor, which RDMASCN_PLUGIN()
 * writes, registers it.  The registration function's name carries the
 * ABI the plugin was built for, so rdmascn refuses a plugin of another
 * ABI, naming both, instead of misreading a structure.
 *
 * Bump RDMASCN_PLUGIN_ABI (and nothing else: the name follows) whenever
 * a structure of these headers changes or a function changes or goes;
 * not for a member put in the padding of a structure a plugin fills and
 * the engine clears first, its size unchanged (rdmascn-plugin(7)).
 * The engine's objects are opaque handles (rdmascn/kind.h), so changing
 * them is no new ABI.
 */

struct ibv_context;
struct ibv_device;
struct ibv_qp_attr;
struct rdmascn_kind;
struct rdmascn_wr_dest;
struct rdmascn_wr_reg;
struct rdmascn_obj;
struct rdmascn_diag;
struct rdmascn_run;
struct rdmascn_live;
struct rdmascn_val;

#define RDMASCN_PLUGIN_ABI 7

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
	void (*describe_device)(struct ibv_context *ctx,
				struct rdmascn_val *dev);
	/* Object kinds and step types the plugin adds, NULL-terminated. */
	const struct rdmascn_kind *const *kinds;
	/* The device features the plugin can tell, ending with { NULL }. */
	const struct rdmascn_feature *features;
	/* Which of @features the device behind @ctx has, when a context
	 * probes its device and for `rdmascn devices`: bit i of *ret_have
	 * for features[i].  0, or -errno (then the device has none of
	 * them).  May be NULL when @features is. */
	int (*device_features)(struct ibv_context *ctx, uint64_t *ret_have);
	/* Its QP kinds that address each send WR (rdmascn/kind.h),
	 * NULL-terminated; NULL: none. */
	const struct rdmascn_wr_dest *const *wr_dests;
	/* Its kinds that a WR of their own registers, NULL-terminated;
	 * NULL: none. */
	const struct rdmascn_wr_reg *const *wr_regs;
};

#define RDMASCN_CAT_(a, b) a##b
#define RDMASCN_CAT(a, b) RDMASCN_CAT_(a, b)
/* The registration function: rdmascn_register_plugin_vN for ABI N. */
#define rdmascn_register_plugin \
	RDMASCN_CAT(rdmascn_register_plugin_v, RDMASCN_PLUGIN_ABI)
void rdmascn_register_plugin(const struct rdmascn_plugin *plugin);

/*
 * A plugin's one registration, in one of its files (rdma-core's
 * PROVIDER_DRIVER): @p, a struct rdmascn_plugin outliving the plugin, is
 * registered from a constructor when rdmascn loads it.
 */
#define RDMASCN_PLUGIN(p)						\
	__attribute__((constructor))					\
	static void rdmascn_plugin_register_(void)			\
	{								\
		rdmascn_register_plugin(&(p));				\
	}

/*
 * What a plugin's kinds call, the engine's objects staying opaque.
 * While a scenario is checked (a kind's check()): the object's
 * data as libcyaml filled it, an object it references, and an error at
 * one of its fields, dotted ("set[2].value"; NULL: the object), printed
 * FILE:LINE:COL.
 */
void *rdmascn_obj_data(const struct rdmascn_obj *obj);
/* The data of the object @obj names @id by (its references are resolved
 * before check() runs); NULL when it names no such object. */
void *rdmascn_obj_ref_data(const struct rdmascn_obj *obj, const char *id);
/* The number an object @obj names by @id gives in its field @field (an
 * unsigned integer of its kind's schema: an mr's "length"), after ${...}
 * were expanded; 0, or -ENOENT when there is no such object or field or
 * the file does not give it. */
int rdmascn_obj_ref_uint(const struct rdmascn_obj *obj, const char *id,
			 const char *field, uint64_t *ret);
/* An object's kind; the object that the object @obj names by @id names
 * in its own reference field @field (a pd's "context"), NULL when none:
 * what a kind checks of its references' references (an mkey's pd on a
 * DevX context). */
const struct rdmascn_kind *rdmascn_obj_kind(const struct rdmascn_obj *obj);
const struct rdmascn_obj *rdmascn_obj_ref_ref(const struct rdmascn_obj *obj,
					      const char *id,
					      const char *field);
void rdmascn_obj_error(struct rdmascn_diag *d,
		       const struct rdmascn_obj *obj, const char *path,
		       const char *fmt, ...)
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
const void *rdmascn_live_data(const struct rdmascn_live *l);
void *rdmascn_live_rt(struct rdmascn_live *l);
const char *rdmascn_live_id(const struct rdmascn_live *l);
struct rdmascn_live *rdmascn_live_find(struct rdmascn_run *run,
				       const char *id);
struct ibv_device *rdmascn_live_device(struct rdmascn_run *run,
				       struct rdmascn_live *l);
bool rdmascn_live_has_feature(struct rdmascn_run *run,
			      struct rdmascn_live *l, const char *feature);
bool rdmascn_dry_run(const struct rdmascn_run *run);
int rdmascn_live_error(struct rdmascn_run *run, struct rdmascn_live *l,
		       int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * A plugin's object made on the verbs context core objects use, so that
 * they can share it (a QP on that context's PD completing into an mlx5
 * CQ).  The ibv_context @l stands on: that of the nearest object on its
 * references offering as_context (a core context, an mlx5 context);
 * NULL when none is open, as in a dry run.
 */
struct ibv_context *rdmascn_live_verbs_context(struct rdmascn_run *run,
					       struct rdmascn_live *l);

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
bool rdmascn_call_go(struct rdmascn_run *run, struct rdmascn_live *l,
		     struct rdmascn_call *c);
void rdmascn_call_result(struct rdmascn_call *c, int err);
int rdmascn_call_done(struct rdmascn_run *run, struct rdmascn_live *l,
		      struct rdmascn_call *c);

/*
 * A plugin's calls shown as the core's are.  IBV_ACCESS_*
 * bits as the language names them ("local_write|remote_read", "0"), into
 * @buf, returned; an ibv_qp_state's name ("RTS"); the attributes @mask
 * names of an ibv_modify_qp() call, as its arguments (a NULL @c is
 * taken).
 */
const char *rdmascn_access_text(uint64_t access, char *buf, size_t len);
const char *rdmascn_qp_state_name(int state);
void rdmascn_qp_attr_args(struct rdmascn_call *c,
			  const struct ibv_qp_attr *attr, int mask);

#endif
