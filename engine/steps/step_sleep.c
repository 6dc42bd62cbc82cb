// SPDX-License-Identifier: MIT
/* sleep: a uv_timer. */
#include <errno.h>

#include "step.h"
#include "steps.h"

struct sleep_rt {
	uv_timer_t timer;
};

static void on_slept(uv_timer_t *t)
{
	rs_step_pass(t->data);
}

static int sleep_start(struct rs_step_run *sr)
{
	const struct rs_step_sleep *s = sr->obj->data;
	struct sleep_rt *rt = sr->rt;

	/* Without its own deadline a sleep gets the default on top. */
	if (!s->common.deadline_ms)
		sr->deadline_ms = s->ms + sr->run->default_deadline_ms;
	uv_timer_init(&sr->loop, &rt->timer);
	rt->timer.data = sr;
	uv_timer_start(&rt->timer, on_slept, s->ms, 0);
	return 0;
}

const struct rdmascn_step_ops rs_step_ops_sleep = {
	.rt_size = sizeof(struct sleep_rt),
	.start = sleep_start,
};
