/* The hand-off: `hdrtone FILE...` gives its files to an hdrtone already running for the same
 * user, and to nothing else (tev's port 127.0.0.1:14158 belongs to tev and to --listen).
 *
 * Where: a Unix socket, HANDOFF_SOCKET_NAME in $XDG_RUNTIME_DIR when that folder is the user's
 * alone (owned by the user, no access for group or others), else in ${TMPDIR:-/tmp}/hdrtone-UID,
 * made with mode 0700 and refused unless it is a folder (not a link) of the user's alone. The
 * environment's HT_HANDOFF=off turns the hand-off off on both sides (the tests' default).
 *
 * The protocol, hdrtone's own:
 *   server -> client  HANDOFF_GREETING as soon as the connection is accepted;
 *   client -> server  absolute paths, each ended by a NUL byte, then one more NUL (the end);
 *   server -> client  "ok N\n" once the viewer has the N paths and the one it shows loaded
 *                     (or a later hand-off or key replaced that load), or "error TEXT\n": a
 *                     path the viewer cannot open, the shown one's load failed (TEXT names
 *                     the file and the reason), or no outcome within HANDOFF_LOAD_TIMEOUT_MS.
 * A client that does not read the greeting within a timeout has not found an hdrtone: it
 * sends nothing. The server accepts only the same user (SO_PEERCRED), at most
 * HANDOFF_MAX_CLIENTS at once, HANDOFF_MAX_BYTES per client, and drops a client silent for
 * HANDOFF_CLIENT_TIMEOUT_MS. It runs on its own thread, so a viewer waiting for window events
 * still answers at once; the viewer takes one list at a time once a frame (handoff_take) and
 * answers it when its load is over (handoff_reply), from the UI thread without waiting. */
#ifndef HT_HANDOFF_H
#define HT_HANDOFF_H

#include <stdbool.h>
#include <stddef.h>

#define HANDOFF_SOCKET_NAME "hdrtone.sock"
#define HANDOFF_GREETING "hdrtone-handoff 1\n"
#define HANDOFF_MAX_CLIENTS 8
#define HANDOFF_MAX_BYTES (1 << 20)
#define HANDOFF_CLIENT_TIMEOUT_MS 5000
/* How long a list's client waits for the viewer's load (the client a little longer). */
#define HANDOFF_LOAD_TIMEOUT_MS 30000

/* False when the environment says HT_HANDOFF=off. */
bool handoff_enabled(void);

/* The socket's path for this user in PATH (LEN bytes), creating the fallback folder when
 * needed. False with the reason in ERR: HT_HANDOFF=off, or no folder of the user's alone. */
bool handoff_socket_path(char *path, size_t len, char *err, size_t errlen);

/* The client side of `hdrtone FILE...`: hands PATHS[0..N) (made absolute against the working
 * directory) to the running hdrtone. Returns -1 when there is none to take them (no socket, a
 * stale one, something that does not greet as hdrtone; ERR then says why, or "" when simply
 * none runs or the hand-off is off): the caller opens a window. Else 0 (handed over) or 1
 * (ERR says why: a path that is not there to read, checked before any is sent; or the hdrtone
 * that greeted failed to take them, did not answer in time, or answered "error TEXT": then
 * ERR is TEXT, the window's reason). */
int handoff_send(char *const *paths, int n, char *err, size_t errlen);

typedef struct handoff handoff;

/* Listens on the socket and starts the server thread; WAKE (may be NULL) is called from that
 * thread when a list arrives, to wake a loop that waits for events (platform_wake). A stale
 * socket (nobody accepts on it) is removed first. Returns NULL with the reason in ERR when the
 * hand-off is off or another process listens already (then *QUIET is set: nothing to tell the
 * user), or the socket cannot be made. */
handoff *handoff_listen(void (*wake)(void), bool *quiet, char *err, size_t errlen);

/* Takes the oldest list received and not yet taken: its paths into a malloc'd array of
 * malloc'd strings at *PATHS (the caller frees both) and returns their number, at least 1;
 * *TICKET names its client for handoff_reply. 0 (and *PATHS NULL) when none waits. Lists of
 * no path are answered "ok 0" by the server and never taken. Thread-safe. */
int handoff_take(handoff *h, char ***paths, unsigned long *ticket);

/* Answers TICKET's client: "ok N" (the N paths it sent) when ERROR is NULL, else "error
 * ERROR" (made one line); once, from any thread, without waiting for the client. A ticket
 * whose client is gone (or timed out) is forgotten. */
void handoff_reply(handoff *h, unsigned long ticket, const char *error);

/* The socket listened on. */
const char *handoff_path(const handoff *h);

/* Stops the thread, closes the clients and removes the socket file if it is still this
 * server's; sets *H to NULL. Accepts NULL and *H == NULL. */
void handoff_stop(handoff **h);

#endif
