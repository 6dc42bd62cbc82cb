// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the rendezvous' wire as a leader and as a node read
 * it, through their real state machines (rendezvous.c, rdv_meet.c) on a
 * socketpair.  The harness plays the peer: it does the handshake with
 * the run's key, then sends the frames the input describes, sealed
 * under the session (so that the fuzzer reaches past the MAC), or now
 * and then as raw bytes (framing and MAC failures).  Input: a first
 * byte picks the role under test (even: leader, odd: node) and the
 * hello's rank; then frames as [type][taglen%8][tag][len16][body],
 * where type 0xff sends the following len16 bytes raw.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "alloc.h"
#include "rdv_int.h"

static const char key[] = "fuzz-the-wire-with-this-key";
static const char *const names[] = { "a", "b" };
static const char *const params[] = { "size=4096" };

static void pump(struct rs_rdv *r, int peer)
{
	uint8_t sink[4096];

	for (int i = 0; i < 4; i++) {
		uv_run(&r->loop, UV_RUN_NOWAIT);
		while (read(peer, sink, sizeof(sink)) > 0)
			;
	}
}

static void put(int fd, const void *p, size_t n)
{
	if (write(fd, p, n) != (ssize_t)n)
		(void)0;        /* full or closed: the engine's to handle */
}

static void send_frame(struct rdv_session *s, int fd, uint8_t type,
		       const char *tag, const uint8_t *body, size_t len)
{
	uint8_t mac[RDV_MAC_LEN] = { 0 }, *m;
	struct rdv_piece pc[2] = { { body, len }, { mac, RDV_MAC_LEN } };
	size_t flen;

	if (rdv_encode(type, tag, pc, s ? 2 : 1, &m, &flen))
		return;
	if (s)
		rdv_session_seal(s, m + 4, flen - 4 - RDV_MAC_LEN,
				 m + flen - RDV_MAC_LEN);
	put(fd, m, flen);
	rs_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rs_rdv_conf conf = {
		.nodes = names, .n_nodes = 2, .leader_addr = "127.0.0.1:1",
		.deadline_ms = 100, .scenario_hash = "f00d",
		.params = params, .n_params = 1,
		.key = (const uint8_t *)key, .key_len = sizeof(key) - 1,
	};
	uint8_t nonce_n[RDV_NONCE_LEN], nonce_l[RDV_NONCE_LEN];
	uint8_t auth[RDV_NONCE_LEN + RDV_MAC_LEN + 64];
	struct rdv_session s;
	struct rs_rdv *r;
	struct rdv_conn *c;
	char err[256], hello[256];
	size_t at = 1;
	int sv[2];
	bool leader;

	if (!size)
		return 0;
	/* The engine may close its end first, as a real node would. */
	signal(SIGPIPE, SIG_IGN);
	leader = !(data[0] & 1);
	conf.self = leader ? 0 : 1;
	r = rs_calloc(1, sizeof(*r));
	if (!r)
		return 0;
	if (rdv_setup(r, &conf, err, sizeof(err)) ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv)) {
		rdv_free(r);
		return 0;
	}
	c = rdv_conn_new(r);
	if (!c || uv_tcp_open(&c->tcp, sv[0]) || rdv_conn_start(c)) {
		close(sv[1]);
		rdv_free(r);
		return 0;
	}
	memset(nonce_n, 0x11, sizeof(nonce_n));
	memset(nonce_l, 0x22, sizeof(nonce_l));
	if (leader) {
		/* A node's handshake, then its hello. */
		send_frame(NULL, sv[1], RDV_AUTH1, NULL, nonce_n,
			   sizeof(nonce_n));
		uv_run(&r->loop, UV_RUN_NOWAIT);
		if (read(sv[1], auth, sizeof(auth)) == 4 + 2 + RDV_NONCE_LEN +
		    RDV_MAC_LEN)
			memcpy(nonce_l, auth + 6, RDV_NONCE_LEN);
		rdv_session_init(&s, (const uint8_t *)key, sizeof(key) - 1,
				 nonce_n, nonce_l, false);
		snprintf(hello, sizeof(hello), "{\"v\":2,\"rank\":%u,"
			 "\"nodes\":[\"a\",\"b\"],\"hash\":\"f00d\",\"run\":"
			 "\"\",\"params\":[\"size=4096\"]}", data[0] >> 7);
		send_frame(&s, sv[1], RDV_HELLO, NULL,
			   (const uint8_t *)hello, strlen(hello));
	} else {
		/* The leader's answer to the node's nonce. */
		c->rank = 0;
		c->dec.cap = RDV_PREAUTH_MAX;
		r->conn[0] = c;
		r->state[0] = RDV_LIVE;
		memcpy(c->nonce, nonce_n, sizeof(nonce_n));
		memcpy(auth, nonce_l, RDV_NONCE_LEN);
		rdv_leader_proof((const uint8_t *)key, sizeof(key) - 1,
				 nonce_n, nonce_l, auth + RDV_NONCE_LEN);
		send_frame(NULL, sv[1], RDV_AUTH2, NULL, auth,
			   RDV_NONCE_LEN + RDV_MAC_LEN);
		rdv_session_init(&s, (const uint8_t *)key, sizeof(key) - 1,
				 nonce_n, nonce_l, true);
	}
	pump(r, sv[1]);
	while (at + 4 <= size) {
		uint8_t type = data[at], tl = data[at + 1] & 7;
		char tag[8];
		size_t len;

		at += 2;
		if (at + tl + 2 > size)
			break;
		for (unsigned i = 0; i < tl; i++)
			tag[i] = (char)(0x20 + data[at + i] % 0x5f);
		tag[tl] = '\0';
		at += tl;
		len = (size_t)data[at] << 8 | data[at + 1];
		at += 2;
		if (len > size - at)
			len = size - at;
		if (type == 0xff)
			put(sv[1], data + at, len);
		else
			send_frame(&s, sv[1], type, tag, data + at, len);
		at += len;
		pump(r, sv[1]);
	}
	close(sv[1]);
	pump(r, -1);
	rdv_free(r);
	return 0;
}
