/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_RDV_AUTH_H
#define RDMASCN_RDV_AUTH_H

/*
 * Who may join a run (docs/nodes.md, "Who can join"): every connection
 * starts with a mutual challenge-response over the run's key, and every
 * frame after it carries an HMAC-SHA-256 under a key of its own session
 * and direction, over a sequence number and the frame.  Apart from the
 * sockets, so that a test and a fuzz target drive it directly.
 *
 *   node   -> leader  AUTH1  nonce_n (32 bytes, fresh)
 *   leader -> node    AUTH2  nonce_l (32 bytes, fresh)
 *                            + HMAC(K, "leader proof" | nonce_n | nonce_l)
 *   node checks the proof; only then it sends its hello, which is the
 *   first frame under the session keys
 *     HMAC(K, "node to leader" | nonce_n | nonce_l) and
 *     HMAC(K, "leader to node" | nonce_n | nonce_l),
 *   so a hello that checks is the node's proof that it holds K.
 * The labels keep a proof from being replayed as another; the fresh
 * nonces keep a session from being replayed as another.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RDV_NONCE_LEN 32
#define RDV_MAC_LEN 32
/* The run's key is at most this long (a key file's size too). */
#define RDV_KEY_MAX 4096

/* One connection's session: a key and a sequence per direction. */
struct rdv_session {
	uint8_t tx[RDV_MAC_LEN], rx[RDV_MAC_LEN];
	uint64_t tx_seq, rx_seq;
};

/* @n fresh random bytes (getrandom(2)): 0 or -errno. */
int rdv_random(uint8_t *p, size_t n);

/* nettle, dlopen()ed on the first call: 0, or -ELIBACC with why in
 * @err.  Before any of the MACs below (without it they are zeros and
 * none is taken). */
int rdv_auth_load(char *err, size_t errlen);

/* The leader's proof for the nonces of one connection. */
void rdv_leader_proof(const uint8_t *key, size_t key_len,
		      const uint8_t *nonce_n, const uint8_t *nonce_l,
		      uint8_t ret[RDV_MAC_LEN]);
/* Whether @proof is the leader's for these nonces (in constant time). */
bool rdv_leader_proof_ok(const uint8_t *key, size_t key_len,
			 const uint8_t *nonce_n, const uint8_t *nonce_l,
			 const uint8_t *proof);

/* The session keys of one connection, as @leader's side sees them. */
void rdv_session_init(struct rdv_session *s, const uint8_t *key,
		      size_t key_len, const uint8_t *nonce_n,
		      const uint8_t *nonce_l, bool leader);

/* The MAC of the next frame sent (@p, @len: the frame after its length,
 * without the MAC): into @ret, and the sequence moves on. */
void rdv_session_seal(struct rdv_session *s, const uint8_t *p, size_t len,
		      uint8_t ret[RDV_MAC_LEN]);
/* Whether @mac is the next received frame's; the sequence moves on
 * either way (a frame that fails ends the connection). */
bool rdv_session_open(struct rdv_session *s, const uint8_t *p, size_t len,
		      const uint8_t *mac);

#endif
