// SPDX-License-Identifier: MIT
/*
 * The rendezvous' proofs and frame MACs (rdv_auth.h), on nettle's
 * HMAC-SHA-256: nettle is what GnuTLS stands on, so its library is on
 * every Debian host already; it has the HMAC and a constant-time compare
 * (memeql_sec) and nothing we would not use.  Randomness comes from the
 * kernel (getrandom(2)), which nettle leaves to its caller.
 */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include <nettle/hmac.h>
#include <nettle/memops.h>

#include "rdv_auth.h"

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

	hmac_sha256_set_key(&h, key_len, key);
	hmac_sha256_update(&h, strlen(label), (const uint8_t *)label);
	hmac_sha256_update(&h, RDV_NONCE_LEN, nonce_n);
	hmac_sha256_update(&h, RDV_NONCE_LEN, nonce_l);
	hmac_sha256_digest(&h, RDV_MAC_LEN, ret);
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
	return memeql_sec(want, proof, RDV_MAC_LEN);
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

	for (i = 0; i < 8; i++)
		sq[i] = (uint8_t)(seq >> (56 - 8 * i));
	hmac_sha256_set_key(&h, RDV_MAC_LEN, k);
	hmac_sha256_update(&h, sizeof(sq), sq);
	hmac_sha256_update(&h, len, p);
	hmac_sha256_digest(&h, RDV_MAC_LEN, ret);
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
	return memeql_sec(want, mac, RDV_MAC_LEN);
}
