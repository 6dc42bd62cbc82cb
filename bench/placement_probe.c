// SPDX-License-Identifier: MIT
/*
 * placement_probe: how far apart the host's two CPUs are, over time.
 *
 * The Soft-RoCE VM's two vCPUs are TCG threads on this host's two CPUs,
 * and this host is itself a guest: its hypervisor moves those CPUs
 * between physical cores.  A cache line crossing between them took
 * about 45, 125 or 550 ns here, switching every fraction of a second to
 * a few seconds, and in the 550 ns placement a latency run in the VM is
 * about 1.4x slower in any tool (traced sample by sample beside this
 * probe).  The bench records it to tell the host's luck from the tool's.
 *
 *   placement_probe DIR [PERIOD_MS [CPU_A CPU_B]]
 *
 * Every PERIOD_MS (default 25) it wakes a thread on CPU_B (default 1)
 * and bounces a cache line with it from CPU_A (default 0) ROUNDS times,
 * then appends "REALTIME_NS MEAN_ROUND_TRIP_NS" to DIR/log.  DIR/clock
 * holds the host's CLOCK_REALTIME in ns as of the last probe, for the
 * guest to read through 9p: the two clocks are not otherwise tied.
 * Runs until killed.  The cost: two short wake-ups per period, tens of
 * microseconds of the VM's time in every PERIOD_MS.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 64

static _Alignas(64) _Atomic long ping;
static _Alignas(64) _Atomic long pong;
static int wake[2];
static int cpu_b = 1;

static uint64_t now_ns(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return sched_setaffinity(0, sizeof(s), &s);
}

/* CPU_B's side: sleep until woken, then answer ROUNDS pings. */
static void *answer(void *arg)
{
	long seen = 0;
	char c;

	(void)arg;
	if (pin(cpu_b) < 0) {
		perror("placement_probe: pin CPU_B");
		exit(1);
	}
	while (read(wake[0], &c, 1) == 1) {
		atomic_store(&pong, -1); /* awake */
		for (int i = 0; i < ROUNDS; i++) {
			long p;

			while ((p = atomic_load_explicit(&ping, memory_order_acquire)) == seen)
				;
			seen = p;
			atomic_store_explicit(&pong, p, memory_order_release);
		}
	}
	return NULL;
}

static int put_clock(int fd)
{
	char b[24];
	int n = snprintf(b, sizeof(b), "%020llu\n",
			 (unsigned long long)now_ns(CLOCK_REALTIME));

	return pwrite(fd, b, (size_t)n, 0) == n ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct timespec period;
	int cpu_a = 0, clock_fd;
	long ms = 25;
	char path[4096];
	pthread_t th;
	FILE *log = NULL;
	long seq = 0;

	if (argc != 2 && argc != 3 && argc != 5) {
		fprintf(stderr, "usage: placement_probe DIR [PERIOD_MS [CPU_A CPU_B]]\n");
		return 2;
	}
	if (argc >= 3)
		ms = atol(argv[2]);
	if (argc == 5) {
		cpu_a = atoi(argv[3]);
		cpu_b = atoi(argv[4]);
	}
	if (ms <= 0 || cpu_a < 0 || cpu_b < 0 || cpu_a == cpu_b) {
		fprintf(stderr, "placement_probe: bad PERIOD_MS or CPUs\n");
		return 2;
	}
	period.tv_sec = ms / 1000;
	period.tv_nsec = ms % 1000 * 1000000L;
	snprintf(path, sizeof(path), "%s/clock", argv[1]);
	clock_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (clock_fd >= 0) {
		snprintf(path, sizeof(path), "%s/log", argv[1]);
		log = fopen(path, "we");
	}
	if (clock_fd < 0 || !log) {
		fprintf(stderr, "placement_probe: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (pin(cpu_a) < 0) {
		perror("placement_probe: pin CPU_A");
		return 1;
	}
	if (pipe(wake) < 0 || pthread_create(&th, NULL, answer, NULL)) {
		perror("placement_probe");
		return 1;
	}
	for (;;) {
		uint64_t t;

		if (put_clock(clock_fd) < 0 || write(wake[1], "w", 1) != 1) {
			perror("placement_probe");
			return 1;
		}
		while (atomic_load(&pong) != -1)
			;
		t = now_ns(CLOCK_MONOTONIC);
		for (int i = 0; i < ROUNDS; i++) {
			atomic_store_explicit(&ping, ++seq, memory_order_release);
			while (atomic_load_explicit(&pong, memory_order_acquire) != seq)
				;
		}
		t = now_ns(CLOCK_MONOTONIC) - t;
		atomic_store(&pong, 0);
		fprintf(log, "%llu %.1f\n", (unsigned long long)now_ns(CLOCK_REALTIME),
			(double)t / ROUNDS);
		fflush(log);
		nanosleep(&period, NULL);
	}
}
