/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_FIGURES_H
#define RDMASCN_FIGURES_H

#include <stdbool.h>

/*
 * Every figure a core step records, one row each: the run record holds
 * it as figures.GROUP.KEY (or figures.GROUP, a group that is one value,
 * when KEY is NULL).  The text report prints a group's rows in table
 * order, each as BEFORE VALUE AFTER; a step's gate: may bound the rows
 * whose GATE is LOW or HIGH (the better direction), and compare judges
 * the HEAD ones by default; the run-record schema's `figures` is
 * generated from it (tests/schema/figures.py says when they drift).
 * A new figure is one row here and the code of the step that records it.
 *
 * X(ID, group, key, type, unit, digits, before, after, gate, head, desc)
 */
#define RS_FIGURE_MAP(X)                                                  \
	X(LAT_UNIT, "latency", "unit", UNIT, "usec", 0, "latency ", ": ",  \
	  NO, false, NULL)                                                \
	X(LAT_MIN, "latency", "min", NUMBER, "usec", 2, "min ", " ", LOW,  \
	  false, NULL)                                                    \
	X(LAT_TYPICAL, "latency", "typical", NUMBER, "usec", 2, "typ ",    \
	  " ", LOW, true, "the median, as perftest's t_typical")          \
	X(LAT_AVG, "latency", "avg", NUMBER, "usec", 2, "avg ", " ", LOW,  \
	  false, NULL)                                                    \
	X(LAT_STDEV, "latency", "stdev", NUMBER, "usec", 2, "stdev ", " ", \
	  LOW, false, NULL)                                               \
	X(LAT_P99, "latency", "p99", NUMBER, "usec", 2, "p99 ", " ", LOW,  \
	  false, NULL)                                                    \
	X(LAT_P999, "latency", "p99.9", NUMBER, "usec", 2, "p99.9 ", " ",  \
	  LOW, false, NULL)                                               \
	X(LAT_MAX, "latency", "max", NUMBER, "usec", 2, "max ", " ", LOW,  \
	  false, NULL)                                                    \
	X(LAT_SAMPLES, "latency", "samples", COUNT, NULL, 0, "(",          \
	  " samples)", NO, false, NULL)                                   \
	X(LAT_HISTOGRAM, "latency", "histogram", HISTOGRAM, "usec", 0,     \
	  NULL, NULL, NO, false,                                          \
	  "one-way latencies counted in buckets a quarter of a power of " \
	  "two wide: counts[i] is how many fell in [edges[i], "           \
	  "edges[i+1]); empty buckets at either end are left out")        \
	X(TP_MESSAGES, "throughput", "messages", COUNT, "messages", 0, "", \
	  " x ", HIGH, false, NULL)                                       \
	X(TP_SIZE, "throughput", "size_bytes", COUNT, "B", 0, "",          \
	  " B in ", NO, false, NULL)                                      \
	X(TP_ELAPSED, "throughput", "elapsed_ms", NUMBER, "ms", 3, "",     \
	  " ms: ", LOW, false, NULL)                                      \
	X(TP_MBS, "throughput", "MB/s", NUMBER, "MB/s", 2, "", " MB/s ",   \
	  HIGH, true, "2^20 bytes per second, as perftest")               \
	X(TP_GBS, "throughput", "Gb/s", NUMBER, "Gb/s", 3, "", " Gb/s ",   \
	  HIGH, false, "10^9 bits per second")                            \
	X(TP_MPPS, "throughput", "Mpps", NUMBER, "Mpps", 4, "", " Mpps",   \
	  HIGH, false, NULL)                                              \
	X(BYTES_EQUAL, "bytes_equal", NULL, COUNT, "B", 0, "",             \
	  " bytes equal", NO, false, NULL)                                \
	X(RKEY, "rkey", NULL, HEX, NULL, 0, "rkey 0x", "", NO, false,      \
	  NULL)                                                           \
	X(SPLIT_WRS, "split", "wrs_per_message", COUNT, NULL, 0,           \
	  "split: ", " WRs a message, ", NO, false, NULL)                 \
	X(SPLIT_PIECE, "split", "piece_bytes", COUNT, "B", 0, "of ",       \
	  " B ", NO, false, "bytes of each WR but the last")              \
	X(SPLIT_MAX, "split", "max_msg_sz", COUNT, "B", 0,                 \
	  "(max_msg_sz ", ")", NO, false,                                 \
	  "the cap: the step's max_msg_sz, else the port's")              \
	X(QP_STATE_QP, "qp_state", "qp", ID, NULL, 0, "qp '", "' ", NO,    \
	  false, NULL)                                                    \
	X(QP_STATE_STATE, "qp_state", "state", TEXT, NULL, 0, "now ", "",  \
	  NO, false, NULL)                                                \
	X(WIRE_NETDEV, "wire", "netdev", TEXT, NULL, 0, "netdev ", "", NO, \
	  false, "the netdev under the context's port")                  \
	X(NETEM_LOSS, "netem", "loss_pct", NUMBER, "%", 2, "netem loss ",  \
	  "%", NO, false, NULL)                                           \
	X(NETEM_DELAY, "netem", "delay_ms", NUMBER, "ms", 3, ", delay ",   \
	  " ms", NO, false, NULL)                                         \
	X(NETEM_JITTER, "netem", "jitter_ms", NUMBER, "ms", 3, " jitter ", \
	  " ms", NO, false, NULL)                                         \
	X(NETEM_REORDER, "netem", "reorder_pct", NUMBER, "%", 2,           \
	  ", reorder ", "%", NO, false, NULL)                             \
	X(NETEM_DUPLICATE, "netem", "duplicate_pct", NUMBER, "%", 2,       \
	  ", duplicate ", "%", NO, false, NULL)                           \
	X(NETEM_CORRUPT, "netem", "corrupt_pct", NUMBER, "%", 2,           \
	  ", corrupt ", "%", NO, false, NULL)                             \
	X(LINK_STATE, "link", "state", TEXT, NULL, 0, "link ", "", NO,     \
	  false, "the state the netdev was set to")                      \
	X(LINK_EVENT_MS, "link", "event_ms", NUMBER, "ms", 1,              \
	  ", the port's event after ", " ms", NO, false,                  \
	  "from the change to the port's asynchronous event (0: the port "\
	  "was in that state already)")                                   \
	X(TT_QP, "transport_timeout", "qp", ID, NULL, 0,                   \
	  "transport timeout of qp '", "'", NO, false, NULL)              \
	X(TT_TIMEOUT, "transport_timeout", "timeout", COUNT, NULL, 0,      \
	  " (timeout ", "", NO, false, NULL)                              \
	X(TT_RETRY, "transport_timeout", "retry_cnt", COUNT, NULL, 0,      \
	  ", retry_cnt ", ")", NO, false, NULL)                           \
	X(TT_EXPECTED, "transport_timeout", "expected_ms", NUMBER, "ms", 1, \
	  ": expected within ~", " ms", NO, false,                        \
	  "4.096 us * 2^timeout a try, at least a jiffy on rxe, "         \
	  "retry_cnt + 1 tries (docs/impairments.md)")                    \
	X(QP_COUNTERS, "qp_counters", NULL, COUNTERS, NULL, 0, NULL, NULL, \
	  NO, false, "the per-QP counters (RDMA netlink counter binding) " \
	  "that moved during the step: {QP_ID: {NAME: delta}}; a bound "  \
	  "QP not listed moved none (the root qp_counters says which "     \
	  "are bound)")

/* A group's own description, where it needs one: X(group, desc). */
#define RS_FIGURE_GROUP_MAP(X)                                            \
	X("split", "a message longer than max_msg_sz went as this many "   \
	  "chained WRs (write, read, send)")                              \
	X("wire", "impair and link: the netdev they change")              \
	X("netem", "impair: what netem does to the netdev's packets (0: "  \
	  "not asked for)")                                               \
	X("link", "link: the netdev down or up, and its port's event")    \
	X("transport_timeout", "impair: when a request nobody "          \
	  "acknowledges ends with retry_exc_err, for the first RC QP on "  \
	  "the context that has such an end (not with retry_cnt 7 on rxe)")

enum rs_figure_type {
	RS_FIGT_UNIT,            /* the group's unit, a constant string */
	RS_FIGT_NUMBER,          /* a double, shown with `digits` */
	RS_FIGT_COUNT,           /* an unsigned integer */
	RS_FIGT_HEX,             /* ... shown in hex */
	RS_FIGT_ID,              /* an object's id */
	RS_FIGT_TEXT,            /* a string */
	RS_FIGT_HISTOGRAM,       /* {unit, edges, counts}; optional, not
				  * in the text report */
	RS_FIGT_COUNTERS,        /* {WHERE: {NAME: delta}}: kernel counters
				  * by where they are counted (a QP's
				  * id); optional, under the step line */
};

/* Which way a gateable figure is better; NO: it takes no gate. */
enum rs_figure_gate { RS_FIGG_NO, RS_FIGG_LOW, RS_FIGG_HIGH };

struct rs_figure_row {
	const char *group;       /* "latency" */
	const char *key;         /* "typical"; NULL: the group's value */
	enum rs_figure_type type;
	const char *unit;        /* NULL: none */
	int digits;              /* NUMBER: after the point, in text */
	const char *before;      /* text around the value; NULL: none */
	const char *after;
	enum rs_figure_gate gate;
	bool headline;           /* compare judges it by default */
	const char *description; /* for the schema; NULL: none */
};

#define RS_FIGURE_ROW_ENUM(id, ...) RS_FIGROW_##id,
enum rs_figure_row_id { RS_FIGURE_MAP(RS_FIGURE_ROW_ENUM) RS_FIGROW_COUNT };
#undef RS_FIGURE_ROW_ENUM

extern const struct rs_figure_row rs_figure_rows[RS_FIGROW_COUNT];

/* The description of group @group, or NULL. */
const char *rs_figure_group_description(const char *group);

/*
 * The rows a gate: may name, numbered apart (enum rs_figure): the
 * gateable ones of the table, in its order.
 */
#define RS_FIG_GATE_ENUM_NO(id)
#define RS_FIG_GATE_ENUM_LOW(id) RS_FIG_##id,
#define RS_FIG_GATE_ENUM_HIGH(id) RS_FIG_##id,
#define RS_FIG_GATE_ENUM(id, g, k, t, u, d, b, a, gate, h, desc)          \
	RS_FIG_GATE_ENUM_##gate(id)
enum rs_figure { RS_FIGURE_MAP(RS_FIG_GATE_ENUM) RS_FIG_COUNT };
#undef RS_FIG_GATE_ENUM

struct rs_figure_def {
	const char *name;        /* "latency.typical": a key of gate: */
	const char *group;       /* "latency" */
	const char *key;         /* "typical" */
	const char *unit;
	bool lower_better;
	bool headline;           /* compare judges it by default */
};
extern const struct rs_figure_def rs_figures[RS_FIG_COUNT];

/* The gateable figure @group.@key, or NULL. */
const struct rs_figure_def *rs_figure_find(const char *group,
					   const char *key);

#endif
