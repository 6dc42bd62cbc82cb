// SPDX-License-Identifier: MIT
/*
 * The rendezvous' proofs and frame MACs (rdv_auth.h), on nettle's
 * HMAC-SHA-256: nettle is what GnuTLS stands on, so its library is on
 * every Debian host already; it has the HMAC and a constant-time compare
 * (memeql_sec) and nothing we would not use.  Randomness comes from the
 * kernel (getrandom(2)), which nettle leaves to its caller.
 *
 * dlopen()ed when nodes first meet (rdv_auth_load()), not linked: a run
 * of one node, a validate or a plan never uses it, and each library
 * linked costs every process its loading (about 15 ms in the Soft-RoCE
 * VM: docs/setup-speed-log.md, set-up 5).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include <nettle/hmac.h>
#include <nettle/memops.h>

#include "dl.h"
#include "macros.h"
#include "rdv_auth.h"

static struct {
	__typeof__(nettle_hmac_sha256_set_key) *set_key;
	__typeof__(nettle_hmac_sha256_update) *update;
	__typeof__(nettle_hmac_sha256_digest) *digest;
	__typeof__(nettle_memeql_sec) *memeql;
} nt;
static int loaded;              /* 0 loaded, -ELIBACC failed */
static char why[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void)
{
	static const struct rs_dl_sym syms[] = {
#define SYM(field, name) { name, offsetof(__typeof__(nt), field) }
		SYM(set_key, "nettle_hmac_sha256_set_key"),
		SYM(update, "nettle_hmac_sha256_update"),
		SYM(digest, "nettle_hmac_sha256_digest"),
		SYM(memeql, "nettle_memeql_sec"),
#undef SYM
	};
	/* Never closed: the process's nodes may meet again (a matrix). */
	loaded = rs_dl_load(RDMASCN_NETTLE_SONAME, syms, RS_N(syms), &nt,
			    why, sizeof(why));
}

int rdv_auth_load(char *err, size_t errlen)
{
	pthread_once(&once, load);
	if (loaded)
		snprintf(err, errlen, "the rendezvous' HMAC (nettle): %s",
			 why);
	return loaded;
}

/* Loaded, or every MAC made is zeros and none is taken: a caller that
 * did not ask rdv_auth_load() first meets nobody. */
static bool ready(void)
{
	pthread_once(&once, load);
	return !loaded;
}

#define LABEL(text) "rdmascn rendezvous v2 " text

int rdv_random(uint8_t *p, size_t n)
{
	while (n) {
		ssize_t got = getrandom(p, n, 0);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return got < 0 ? -errno : -EIO;
		p += got;
		n -= (size_t)got;
	}
	return 0;
}

/* HMAC(@key, @label | nonce_n | nonce_l) */
static void mac_nonces(const uint8_t *key, size_t key_len, const char *label,
		       const uint8_t *nonce_n, const uint8_t *nonce_l,
		       uint8_t ret[RDV_MAC_LEN])
{
	struct hmac_sha256_ctx h;

	if (!ready()) {
		memset(ret, 0, RDV_MAC_LEN);
		return;
	}
	nt.set_key(&h, key_len, key);
	nt.update(&h, strlen(label), (const uint8_t *)label);
	nt.update(&h, RDV_NONCE_LEN, nonce_n);
	nt.update(&h, RDV_NONCE_LEN, nonce_l);
	nt.digest(&h, RDV_MAC_LEN, ret);
}

void rdv_leader_proof(const uint8_t *key, size_t key_len,
		      const uint8_t *nonce_n, const uint8_t *nonce_l,
		      uint8_t ret[RDV_MAC_LEN])
{
	mac_nonces(key, key_len, LABEL("leader proof"), nonce_n, nonce_l,
		   ret);
}

bool rdv_leader_proof_ok(const uint8_t *key, size_t key_len,
			 const uint8_t *nonce_n, const uint8_t *nonce_l,
			 const uint8_t *proof)
{
	uint8_t want[RDV_MAC_LEN];

	rdv_leader_proof(key, key_len, nonce_n, nonce_l, want);
	return ready() && nt.memeql(want, proof, RDV_MAC_LEN);
}

void rdv_session_init(struct rdv_session *s, const uint8_t *key,
		      size_t key_len, const uint8_t *nonce_n,
		      const uint8_t *nonce_l, bool leader)
{
	uint8_t *to_leader = leader ? s->rx : s->tx;
	uint8_t *to_node = leader ? s->tx : s->rx;

	mac_nonces(key, key_len, LABEL("node to leader"), nonce_n, nonce_l,
		   to_leader);
	mac_nonces(key, key_len, LABEL("leader to node"), nonce_n, nonce_l,
		   to_node);
	s->tx_seq = 0;
	s->rx_seq = 0;
}

static void frame_mac(const uint8_t k[RDV_MAC_LEN], uint64_t seq,
		      const uint8_t *p, size_t len, uint8_t ret[RDV_MAC_LEN])
{
	struct hmac_sha256_ctx h;
	uint8_t sq[8];
	unsigned i;

	if (!ready()) {
		memset(ret, 0, RDV_MAC_LEN);
		return;
	}
	for (i = 0; i < 8; i++)
		sq[i] = (uint8_t)(seq >> (56 - 8 * i));
	nt.set_key(&h, RDV_MAC_LEN, k);
	nt.update(&h, sizeof(sq), sq);
	nt.update(&h, len, p);
	nt.digest(&h, RDV_MAC_LEN, ret);
}

void rdv_session_seal(struct rdv_session *s, const uint8_t *p, size_t len,
		      uint8_t ret[RDV_MAC_LEN])
{
	frame_mac(s->tx, s->tx_seq++, p, len, ret);
}

bool rdv_session_open(struct rdv_session *s, const uint8_t *p, size_t len,
		      const uint8_t *mac)
{
	uint8_t want[RDV_MAC_LEN];

	frame_mac(s->rx, s->rx_seq++, p, len, want);
	return ready() && nt.memeql(want, mac, RDV_MAC_LEN);
}
