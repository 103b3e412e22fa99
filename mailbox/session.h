/* SPDX-License-Identifier: MIT */
/*
 * Host sessions (mailbox-private; hartpool/mbox.h's "Sessions"): the
 * session table in the mailbox, what each session holds (commands in
 * flight, buffers and their regions, kernel objects) and the view its
 * kernels get (an isolation domain per session). The dispatcher opens and
 * ends sessions (dispatch.c drives it: open, stop reading and cancel
 * (queue.c), reclaim here once nothing of it runs).
 */
#ifndef MAILBOX_SESSION_H
#define MAILBOX_SESSION_H

#include <hartpool/mbox.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** No session (a queue nobody's open session claimed). */
#define MBOX_NO_SESSION (-1)

/** The session table at @p table (HP_MBOX_SESSIONS entries, zeroed);
 * @p hdr gets the use figures (mbox_session_publish). */
void mbox_session_init(hp_mbox_session *table, hp_mbox_header *hdr);

/** Sessions to open (claimed by a host, not open yet) and to end (an
 * end request, or an owner word the host changed), as bit masks. */
void mbox_session_requests(uint32_t *open, uint32_t *end);

/** Open session @p s for the token its host claimed it with. */
void mbox_session_open(unsigned s);
/** Session @p s ends: from now on its queues are not read
 * (mbox_session_ending); the caller cancels its commands. */
void mbox_session_begin_end(unsigned s);
/** Sessions that are ending and have nothing left in flight. */
uint32_t mbox_session_reclaimable(void);
/** Give back everything session @p s held (buffers, objects) and the slot
 * itself; the caller has given its queues back. */
void mbox_session_reclaim(unsigned s);

/** The open session whose token is @p owner, or MBOX_NO_SESSION. */
int mbox_session_find(uint64_t owner);
/** Is session @p s ending (its queues not to be read)? */
bool mbox_session_ending(unsigned s);
/** The token session @p s serves (0: none). */
uint64_t mbox_session_token(unsigned s);
/** A queue was bound to session @p s, or unbound from it. */
void mbox_session_queue_bound(unsigned s, int delta);
/** A command of session @p s was read / completed (any hart). */
void mbox_session_cmd_start(unsigned s);
void mbox_session_cmd_done(unsigned s);
/** A completion record of session @p s is written: ring its host's bell
 * if it asked for it (HP_SESSION_BELL) and the device has one. */
void mbox_session_record_done(unsigned s);
/** The host bell (NULL: none), before the first session opens. */
void mbox_session_host_bell(void (*ring)(void));
/** Commands of session @p s ended by its ending. */
void mbox_session_cancelled(unsigned s, unsigned n);

/** The session whose host-owned words (owner to the end of
 * host_reserved) hold [addr, addr + len), or MBOX_NO_SESSION; *owner_word
 * (may be NULL) says whether the range covers its owner word whole. */
int mbox_session_at(uint64_t addr, uint64_t len, bool *owner_word);
/** Session @p s's owner word as the host last wrote it. */
uint64_t mbox_session_owner(unsigned s);
/** Open sessions whose token is one of @p tokens[0..n). */
uint32_t mbox_session_of_tokens(const uint64_t *tokens, unsigned n);

/** The isolation domain of session @p s's kernels (executor/exec.h). */
unsigned mbox_session_domain(unsigned s);

/** ALLOC for session @p s: its buffer and heap quotas checked, then
 * mbox_heap_alloc (@p at nonzero: mbox_heap_alloc_at), with the kernels' view
 * updated when its regions change and, when memory is short, the unused
 * parts of idle sessions' regions given back first. */
uint64_t mbox_session_alloc(unsigned s, uint64_t at, uint64_t size, char *why,
			    size_t n);

/** The quotas (mailbox/quota.h): of a shared device (@p shared) with
 * @p max and @p min per enum hp_quota_res (MBOX_QUOTA_DEFAULT or NULL: the
 * default), else none; published in the header. After the heap and the
 * kernel table are set up. */
void mbox_session_quotas(bool shared, const uint64_t *max, const uint64_t *min);
/** May session @p s take @p n more units of resource @p res (enum
 * hp_quota_res)? 0, or HP_OUT_OF_RESOURCES with the quota and the numbers
 * in @p why (@p len bytes; may be NULL). The dispatcher. */
int mbox_session_quota(unsigned s, unsigned res, uint64_t n, char *why,
		       size_t len);
/** A session's most of resource @p res (the capacity on a private
 * device). */
uint64_t mbox_session_quota_max(unsigned res);
/** LOAD's check (mbox_kobj_admit_fn): an object and @p kernels rows. */
int mbox_session_admit_object(unsigned s, unsigned kernels, char *why,
			      size_t n);
/** May the dispatcher read one more packet of session @p s (its
 * commands-in-flight quota)? If not, the hart that completes a command
 * wakes the dispatcher to look again. */
bool mbox_session_may_read(unsigned s);

/** Something the figures count changed (a buffer was freed: any hart). */
void mbox_session_touch(void);
/** Publish the counters of the session table and the mailbox header's
 * use figures, if something changed since; with @p rate_limited at most
 * every millisecond (while commands flow). The dispatcher. */
void mbox_session_publish_dirty(bool rate_limited);
/** Publish them now. The dispatcher. */
void mbox_session_publish(void);

#endif
