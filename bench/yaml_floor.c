// SPDX-License-Identifier: MIT
/*
 * The floor for any YAML loader: one bare libyaml event pass over a file,
 * each event taken and deleted, nothing kept.  bench/validate_scale.sh
 * divides rdmascn's times by this one.
 *
 *	yaml_floor FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <yaml.h>

int main(int argc, char **argv)
{
	yaml_parser_t p;
	unsigned long events = 0;
	FILE *f;
	int done = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: yaml_floor FILE\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 3;
	}
	if (!yaml_parser_initialize(&p))
		return 3;
	yaml_parser_set_input_file(&p, f);
	while (!done) {
		yaml_event_t ev;

		if (!yaml_parser_parse(&p, &ev)) {
			fprintf(stderr, "%s:%zu:%zu: %s\n", argv[1],
				p.problem_mark.line + 1,
				p.problem_mark.column + 1,
				p.problem ? p.problem : "error");
			yaml_parser_delete(&p);
			fclose(f);
			return 1;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		events++;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	fclose(f);
	printf("%lu events\n", events);
	return 0;
}
