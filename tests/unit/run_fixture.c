// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cli.h"
#include "run_fixture.h"

struct rs_scenario *fixture_load(const char *name, const char *yaml)
{
	/* The scenario keeps the name it was loaded from (locations point
	 * at it), as it keeps argv's: it must outlive the scenario. */
	static char path[128];
	struct rs_scenario *s;
	struct rs_diag d;
	FILE *fp;

	snprintf(path, sizeof(path), "/tmp/rdmascn-test-%s.%d.yaml", name,
		 getpid());
	fp = fopen(path, "w");
	CHECK(fp);
	fputs(yaml, fp);
	fclose(fp);
	rs_cli_registry_init();
	rs_diag_init(&d, stderr);
	CHECK_INT(rs_scenario_load(path, NULL, 0, &d, &s), 0);
	unlink(path);
	return s;
}

void fixture_run_open(const char *name, const char *yaml,
		      struct rs_scenario **ret_s, struct rs_run *run,
		      struct rs_record *rec)
{
	struct rs_scenario *s = fixture_load(name, yaml);

	memset(run, 0, sizeof(*run));
	run->s = s;
	run->file = name;
	run->dry_run = true;
	CHECK_INT(rs_record_init(rec, false, false), 0);
	run->rec = rec;
	rs_diag_init(&run->diag, NULL);
	run->live = calloc(s->n_objects, sizeof(*run->live));
	CHECK(run->live);
	for (unsigned i = 0; i < s->n_objects; i++) {
		const struct rdmascn_ops *ops = s->objs[i].kind->ops;

		run->live[i].obj = &s->objs[i];
		run->live[i].rt = calloc(1, ops->rt_size ? ops->rt_size : 1);
		CHECK(run->live[i].rt);
	}
	CHECK_INT(rs_idmap_build_stride(&run->ids, &s->objs[0].id,
					sizeof(s->objs[0]), s->n_objects), 0);
	*ret_s = s;
}

void fixture_run_close(struct rs_scenario *s, struct rs_run *run,
		       struct rs_record *rec)
{
	for (unsigned i = 0; i < s->n_objects; i++)
		free(run->live[i].rt);
	free(run->live);
	rs_idmap_free(&run->ids);
	rs_record_free(rec);
	rs_scenario_free(s);
}
