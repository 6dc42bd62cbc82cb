// SPDX-License-Identifier: MIT
/*
 * rdmascn devices as text: what rs_devices_describe() found (the data
 * -j prints), as a summary of each device and, with -v, every attribute
 * below it.  Rendered from the data alone, so a recorded `devices -j`
 * prints here as it did on its host.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "macros.h"
#include "report.h"
#include "value.h"

static void print_caps(FILE *f, const struct rs_val *dev)
{
	static const char *const keys[] = {
		"max_qp", "max_qp_wr", "max_cq", "max_cqe", "max_mr",
		"max_mr_size", "max_pd", "max_mw", "max_srq", "max_ah",
		"max_sge", "max_qp_rd_atom",
	};
	const struct rs_val *caps = rs_val_get(dev, "caps");
	const struct rs_val *feat = rs_val_get(dev, "features");
	int col = 0;

	if (!caps)
		return;
	fputs("  caps:", f);
	col = 7;
	for (size_t i = 0; i < RS_N(keys); i++) {
		char item[64];
		int len = snprintf(item, sizeof(item), " %s %llu", keys[i],
				   (unsigned long long)rs_val_get_u64(caps, keys[i]));

		if (col + len > 78) {
			fputs("\n       ", f);
			col = 7;
		}
		fputs(item, f);
		col += len;
	}
	fprintf(f, "\n  atomic: %s", rs_val_get_str(caps, "atomic"));
	fputs("  features:", f);
	for (size_t i = 0; feat && i < rs_val_len(feat); i++) {
		char buf[64];

		fprintf(f, " %s", rs_val_text_of(rs_val_at(feat, i), buf,
						 sizeof(buf)));
	}
	if (!feat || !rs_val_len(feat))
		fputs(" -", f);
	fputc('\n', f);
}

/* The column of the values of `devices -v`: past the longest key. */
#define VALUE_COL 36

/* Sizes and masks a person reads in hex, as ibv_devinfo prints them. */
static bool shown_in_hex(const char *key)
{
	static const char *const keys[] = {
		"max_mr_size", "page_size_cap", "completion_timestamp_mask",
		"comp_mask",
	};

	for (size_t i = 0; i < RS_N(keys); i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

/* The IB spec's per-lane speed and width of a port's active_* codes. */
static const char *port_code_name(const char *key, uint64_t v)
{
	static const struct rs_bit_name widths[] = {
		{ 1, "1X" }, { 2, "4X" }, { 4, "8X" }, { 8, "12X" },
		{ 16, "2X" },
	};
	static const struct rs_bit_name speeds[] = {
		{ 1, "2.5 Gbps" }, { 2, "5.0 Gbps" }, { 4, "10.0 Gbps" },
		{ 8, "10.0 Gbps" }, { 16, "14.0 Gbps" },
		{ 32, "25.0 Gbps" }, { 64, "50.0 Gbps" }, { 128, "100.0 Gbps" },
	};
	const struct rs_bit_name *t;
	size_t n;

	if (!strcmp(key, "active_width")) {
		t = widths;
		n = RS_N(widths);
	} else if (!strcmp(key, "active_speed")) {
		t = speeds;
		n = RS_N(speeds);
	} else {
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		if (t[i].bit == v)
			return t[i].name;
	return NULL;
}

static bool is_flag_list(const struct rs_val *v)
{
	return rs_val_type_of(v) == RS_VAL_ARR &&
	       (!rs_val_len(v) || rs_val_type_of(rs_val_at(v, 0)) == RS_VAL_STR);
}

/* KEY_raw of a flag list is printed with the list, not on its own. */
static bool is_raw_of_flags(const struct rs_val *obj, const char *key)
{
	size_t n = strlen(key);
	char base[128];
	const struct rs_val *list;

	if (n < 5 || n - 4 >= sizeof(base) || strcmp(key + n - 4, "_raw"))
		return false;
	memcpy(base, key, n - 4);
	base[n - 4] = '\0';
	list = rs_val_get(obj, base);
	return list && is_flag_list(list);
}

static void print_scalar(FILE *f, int indent, const char *key,
			 const struct rs_val *v)
{
	const char *name;
	char buf[256];

	fprintf(f, "%*s%-*s ", indent, "", VALUE_COL - indent - 1, key);
	switch (rs_val_type_of(v)) {
	case RS_VAL_UINT:
	case RS_VAL_INT: {
		uint64_t u = rs_val_u64_of(v);

		if (shown_in_hex(key))
			fprintf(f, "0x%" PRIx64, u);
		else
			fprintf(f, "%" PRIu64, u);
		name = port_code_name(key, u);
		if (name)
			fprintf(f, " (%s)", name);
		break;
	}
	default:
		fputs(rs_val_text_of(v, buf, sizeof(buf)), f);
		break;
	}
	fputc('\n', f);
}

/* "KEY  0xRAW name name ...", the names wrapped under the value column. */
static void print_flag_list(FILE *f, int indent, const struct rs_val *obj,
			    const char *key, const struct rs_val *list)
{
	char raw_key[140];
	int col = VALUE_COL;
	bool sep;

	snprintf(raw_key, sizeof(raw_key), "%s_raw", key);
	sep = rs_val_get(obj, raw_key);
	fprintf(f, "%*s%-*s ", indent, "", VALUE_COL - indent - 1, key);
	if (sep)
		col += fprintf(f, "0x%" PRIx64, rs_val_get_u64(obj, raw_key));
	else if (!rs_val_len(list))
		fputc('-', f);
	for (size_t i = 0; i < rs_val_len(list); i++) {
		char buf[64];
		const char *name = rs_val_text_of(rs_val_at(list, i), buf,
						  sizeof(buf));
		int len = (int)strlen(name);

		if (col + sep + len > 79) {
			/* Continued under the value column. */
			fprintf(f, "\n%*s", VALUE_COL, "");
			col = VALUE_COL;
		} else if (sep) {
			fputc(' ', f);
			col++;
		}
		fputs(name, f);
		col += len;
		sep = true;
	}
	fputc('\n', f);
}

/* An object's numbers and strings, a line each. */
static void print_scalars(FILE *f, int indent, const struct rs_val *obj)
{
	rs_val_foreach(obj, v) {
		const char *key = rs_val_key(v);

		if (rs_val_type_of(v) != RS_VAL_OBJ &&
		    rs_val_type_of(v) != RS_VAL_ARR &&
		    !is_raw_of_flags(obj, key))
			print_scalar(f, indent, key, v);
	}
}

static void print_flag_lists(FILE *f, int indent, const struct rs_val *obj)
{
	rs_val_foreach(obj, j)
		if (is_flag_list(j))
			print_flag_list(f, indent, obj, rs_val_key(j), j);
}

static void print_members(FILE *f, int indent, const struct rs_val *obj);

/* An object's objects (but @skip), each a group headed by its key. */
static void print_groups(FILE *f, int indent, const struct rs_val *obj,
			 const char *skip)
{
	rs_val_foreach(obj, j) {
		const char *key = rs_val_key(j);

		if (rs_val_type_of(j) != RS_VAL_OBJ ||
		    (skip && !strcmp(key, skip)))
			continue;
		fprintf(f, "%*s%s:\n", indent, "", key);
		print_members(f, indent + 2, j);
	}
}

/* Scalars, flag lists, then nested groups. Arrays of objects (a port's
 * GIDs) are the summary's table. */
static void print_members(FILE *f, int indent, const struct rs_val *obj)
{
	print_scalars(f, indent, obj);
	print_flag_lists(f, indent, obj);
	print_groups(f, indent, obj, NULL);
}

/* `devices -v`: every attribute, grouped as the verbs' structs are. */
static void print_all(FILE *f, const struct rs_val *dev)
{
	const struct rs_val *caps = rs_val_get(dev, "caps");
	const struct rs_val *ports = rs_val_get(dev, "ports");

	fputs("  device:\n", f);
	print_scalars(f, 4, dev);
	print_flag_lists(f, 4, dev);
	if (caps) {
		fputs("  limits:\n", f);
		print_scalars(f, 4, caps);
		fputs("  capability flags:\n", f);
		print_flag_lists(f, 4, caps);
		print_groups(f, 2, caps, NULL);
	}
	for (size_t p = 0; ports && p < rs_val_len(ports); p++) {
		const struct rs_val *port = rs_val_at(ports, p);

		fprintf(f, "  port %" PRIu64 ":\n", rs_val_get_u64(port, "port"));
		print_members(f, 4, port);
	}
	/* What plugins added, an object each. */
	print_groups(f, 2, dev, "caps");
}

void rs_devices_text(FILE *f, const struct rs_val *devs, bool all)
{
	for (size_t d = 0; d < rs_val_len(devs); d++) {
		const struct rs_val *dev = rs_val_at(devs, d);
		const struct rs_val *ports = rs_val_get(dev, "ports");
		const char *err = rs_val_get_str(dev, "error");

		if (d)
			fputc('\n', f);
		fprintf(f, "%s: %s, node_guid %s", rs_val_get_str(dev, "name"),
			rs_val_get_str(dev, "node_type"),
			rs_val_get_str(dev, "node_guid"));
		if (err) {
			fprintf(f, "\n  error: %s\n", err);
			continue;
		}
		fprintf(f, ", fw %s, vendor %s part %llu\n",
			rs_val_get_str(dev, "fw_ver"),
			rs_val_get_str(dev, "vendor_id"),
			(unsigned long long)rs_val_get_u64(dev, "vendor_part_id"));
		print_caps(f, dev);
		fprintf(f, "  %-4s %-8s %-10s %-5s %-5s %-5s %-40s %-8s %s\n",
			"PORT", "STATE", "LINK", "MTU", "LID", "GID#", "GID",
			"TYPE", "NETDEV");
		for (size_t p = 0; ports && p < rs_val_len(ports); p++) {
			const struct rs_val *port = rs_val_at(ports, p);
			const struct rs_val *gids = rs_val_get(port, "gids");
			size_t ng = gids ? rs_val_len(gids) : 0;

			for (size_t g = 0; g < (ng ? ng : 1); g++) {
				const struct rs_val *gid = ng ? rs_val_at(gids, g) : NULL;
				const char *nd = gid ? rs_val_get_str(gid, "netdev") : NULL;

				if (g == 0)
					fprintf(f, "  %-4llu %-8s %-10s %-5llu %-5llu ",
						(unsigned long long)rs_val_get_u64(port, "port"),
						rs_val_get_str(port, "state"),
						rs_val_get_str(port, "link_layer"),
						(unsigned long long)rs_val_get_u64(port, "active_mtu"),
						(unsigned long long)rs_val_get_u64(port, "lid"));
				else
					fprintf(f, "  %-4s %-8s %-10s %-5s %-5s ",
						"", "", "", "", "");
				if (!gid) {
					fputs("-\n", f);
					continue;
				}
				fprintf(f, "%-5llu %-40s %-8s %s\n",
					(unsigned long long)rs_val_get_u64(gid, "index"),
					rs_val_get_str(gid, "gid"),
					rs_val_get_str(gid, "type"), nd ? nd : "-");
			}
		}
		if (all)
			print_all(f, dev);
	}
}
