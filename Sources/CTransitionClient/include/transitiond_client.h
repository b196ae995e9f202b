/*
 * transitiond_client.h: the C client library of transitiond (docs/client-c.md).
 *
 * Plain C11, no other dependency. Link with -ltransitiond-client (pkg-config
 * transitiond-client). Read from top to bottom:
 *
 *   1. versions and status codes;
 *   2. decoded frames (td_frame, td_layer) and events (td_event);
 *   3. the decoder: lines of a recording or a socket in, whole frames out, no socket needed;
 *   4. the client: a connection to the daemon that fits any event loop (td_client_fd,
 *      td_client_dispatch, td_client_flush, td_client_timeout_ms), with a blocking form for
 *      simple programs (td_client_request_sync, td_client_wait_event);
 *   5. requests and replies: a generic call for every op of docs/protocol.md, typed helpers.
 *
 * Threads: no object of this library is thread-safe, and none uses a thread of its own. Use
 * each td_client or td_decoder from one thread at a time (different objects may be used on
 * different threads). No call keeps a global state except the C numeric locale, made once.
 *
 * Ownership: a pointer returned as `const` is owned by the library and valid for as long as
 * its comment says; a td_reply handed out by td_client_take_reply, td_client_wait_reply or
 * td_client_request_sync is the caller's, released by td_reply_destroy; each `_new` has its
 * `_destroy`. Strings are UTF-8 and NUL-terminated.
 *
 * Decoded frames: what every renderer draws. A frame is a whole frame (on a delta
 * subscription the library applies the deltas itself); its layers come in the order of the
 * frame's `layers` array (docs/protocol.md, "frame"; docs/renderers.md, "What a layer says").
 *
 * Growth: each struct begins with `size`, the sizeof of the struct as the library was built;
 * members are only ever appended, and a caller reads a member only when `size` covers it.
 * Layers are reached through an array of pointers, so that a grown layer struct never changes
 * the array's stride.
 */
#ifndef TRANSITIOND_CLIENT_H
#define TRANSITIOND_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* TD_API marks the library's exported calls; everything else in it is hidden. */
#if defined(__GNUC__) || defined(__clang__)
#define TD_API __attribute__((visibility("default")))
#else
#define TD_API
#endif

#define TD_CLIENT_VERSION_MAJOR 1
#define TD_CLIENT_VERSION_MINOR 0
#define TD_CLIENT_VERSION_PATCH 0
#define TD_CLIENT_VERSION_STRING "1.0.0"
/** The wire protocol version this library speaks (docs/protocol.md). */
#define TD_PROTOCOL_VERSION 1

/** The library's version, as `major * 1000 + minor`: compare with the macros to detect a
 *  header and a library of different versions. Cheap. */
TD_API int td_client_version(void);

/* ---------------------------------------------------------------------------------------- */
/* Status codes                                                                               */
/* ---------------------------------------------------------------------------------------- */

/** What a call returns: TD_OK (0), a positive "nothing yet" code, or a negative error. After
 *  an error, td_client_error / td_decoder_error say what happened. */
typedef enum td_status {
    TD_OK = 0,
    TD_AGAIN = 1,            /* nothing ready yet (no event queued, reply not come, bytes remain) */
    TD_SKIPPED = 2,          /* a line consumed without an event (a delta dropped after a gap) */
    TD_ERR_ARGUMENT = -1,    /* a bad argument (NULL, malformed members JSON, non-finite number) */
    TD_ERR_NO_MEMORY = -2,   /* an allocation failed */
    TD_ERR_CONNECT = -3,     /* no daemon answers at the socket path */
    TD_ERR_CLOSED = -4,      /* the connection is closed (the daemon went away) */
    TD_ERR_IO = -5,          /* a system call failed (the message names it and errno) */
    TD_ERR_TIMEOUT = -6,     /* a blocking call's time ran out */
    TD_ERR_MALFORMED = -7,   /* a line that breaks the protocol: not JSON, wrong types, NUL bytes */
    TD_ERR_LIMIT = -8,       /* a bound was passed: line length, layers, nesting, number size */
    TD_ERR_SEQ_GAP = -9,     /* a delta frame after a gap in seq: its session waits for a key frame */
    TD_ERR_NO_KEY_FRAME = -10, /* a delta frame of a session with no key frame, or an unknown layer */
    TD_ERR_REPLY = -11,      /* the daemon replied ok:false (the message is its code and message) */
    TD_ERR_STATE = -12       /* the call does not fit the object's state */
} td_status;

/** A status code's name ("TD_ERR_CLOSED"), a static string; "TD_UNKNOWN" for others. Cheap. */
TD_API const char *td_status_name(int status);

/** An error: its code (a td_status) and a one-line message. */
typedef struct td_error {
    int code;
    const char *message; /* NUL-terminated; "" after success */
} td_error;


/** One layer of a whole frame, with every default filled in. */
typedef struct td_layer {
    uint32_t size;          /* sizeof(td_layer) as the library was built */
    const char *id;         /* NUL-terminated UTF-8, owned by the frame */
    double frame[4];        /* x, y, w, h: the untransformed box in container points, y down */
    double anchor[2];       /* unit coordinates of the box; 0.5, 0.5 when absent */
    double transform[16];   /* m11, m12, ... m44, row vectors (p' = p . M); identity when absent */
    double alpha;           /* [0, 1]; 1 when absent */
    int hidden;             /* 1 when the layer draws nothing, else 0 */
    double z;               /* paint order: higher on top, ties in array order */
    int has_background;     /* 0: no background (transparent) */
    uint8_t background[4];  /* r, g, b, a: sRGB, straight alpha (when has_background) */
    const char *content;    /* the layer's content as compact JSON text, or NULL; owned by the frame */
    /* A geometry stream's projected geometry (subscribe's "geometry": "quad", docs/protocol.md,
     * "Projected geometry"); all 0 on other streams. */
    int has_geometry;       /* 1 when the layer carries quad, quadW and affine */
    int has_quad;           /* 0 when a corner is at or behind the eye (quad null) */
    double quad[8];         /* corners x, y: top-left, top-right, bottom-right, bottom-left (has_quad) */
    double quad_w[4];       /* each corner's homogeneous w, in the same order */
    int has_affine;         /* 1 when one affine map draws the layer */
    double affine[6];       /* a, b, c, d, tx, ty: (x, y) is drawn at (a x + c y + tx, b x + d y + ty) */
    /* Appearance (docs/renderers.md, "Appearance"); defaults when absent. */
    double corner_radius;       /* points; 0 when absent */
    int clips;                  /* 1: content clipped to the rounded box */
    double border_width;        /* points, drawn inside the box edge; 0 when absent */
    uint8_t border_color[4];    /* r, g, b, a: sRGB, straight alpha */
    uint8_t shadow_color[4];    /* r, g, b, a; a == 0: no shadow */
    double shadow_blur;         /* CSS blur radius, points (Gaussian sigma = blur / 2) */
    double shadow_offset[2];    /* dx, dy, points */
    const char *clip_to;        /* id of the clipping layer (one of this frame's), or NULL; owned by the frame */
} td_layer;

/** A whole frame of one session. Owned by the library; valid until the call the docs name. */
typedef struct td_frame {
    uint32_t size;                 /* sizeof(td_frame) as the library was built */
    const char *session;           /* the session id, NUL-terminated */
    uint64_t seq;                  /* the stream's frame number */
    double t;                      /* seconds (docs/protocol.md, "frame") */
    double progress;               /* linear progress in [0, 1] */
    size_t layer_count;
    const td_layer *const *layers; /* layer_count pointers, in the frame's array order */
} td_frame;

/* ---------------------------------------------------------------------------------------- */
/* Events                                                                                     */
/* ---------------------------------------------------------------------------------------- */

typedef enum td_event_type {
    TD_EVENT_FRAME = 1,    /* a whole frame: `frame` */
    TD_EVENT_BEGIN = 2,    /* a session's stream opens: the begin_* members */
    TD_EVENT_COMPLETE = 3, /* a session's stream ends: `finished` */
    TD_EVENT_STOPPING = 4, /* the daemon is shutting down */
    TD_EVENT_OTHER = 5,    /* an event this library does not model: read `json` */
    TD_EVENT_DISCONNECTED = 6, /* made by the client: the connection was lost (no `json`) */
    TD_EVENT_RECONNECTED = 7   /* made by the client: connected again, subscriptions renewed */
} td_event_type;

/** One event. Owned by the decoder or client that handed it out; valid until the next call on
 *  that object that reads, dispatches or decodes (the comment of each call says which). */
typedef struct td_event {
    uint32_t size;           /* sizeof(td_event) as the library was built */
    td_event_type type;
    const char *name;        /* the line's `event` ("frame", "begin", ...), or "disconnected", "reconnected" */
    const char *session;     /* the session id, or NULL for events about no session */
    const char *json;        /* the line as received, without its newline; NULL for events the client made */
    size_t json_length;
    /* TD_EVENT_FRAME */
    const td_frame *frame;   /* the whole frame (a delta subscription's frame rebuilt) */
    int key;                 /* 1: came as a key frame, 0: came as a delta, -1: a full subscription's */
    /* TD_EVENT_COMPLETE */
    int finished;            /* 1 when the session reached its end, 0 when it was cancelled */
    /* TD_EVENT_BEGIN (NULL or 0 for members the event lacks) */
    const char *animator;
    const char *operation;
    const char *clock;       /* "wall" or "virtual" */
    const char *encoding;    /* "full" or "delta" */
    double container[2];     /* w, h of the stage */
    double duration;         /* seconds */
    double fps;
    double start;            /* seconds on the daemon's CLOCK_MONOTONIC */
    int interactive;
} td_event;

/* ---------------------------------------------------------------------------------------- */
/* The decoder: no socket                                                                     */
/* ---------------------------------------------------------------------------------------- */

/** Bounds of what one line may hold. Zero members take the defaults. */
typedef struct td_limits {
    uint32_t size;             /* sizeof(td_limits); set by td_limits_init */
    size_t max_line_bytes;     /* default 16 MiB: a longer line is TD_ERR_LIMIT */
    size_t max_layers;         /* default 4096 layers a frame */
    unsigned max_depth;        /* default 64 levels of nesting */
    size_t max_sessions;       /* default 4096 sessions whose delta state is kept at once */
} td_limits;

#define TD_DEFAULT_MAX_LINE_BYTES ((size_t)16 << 20)
#define TD_DEFAULT_MAX_LAYERS 4096
#define TD_DEFAULT_MAX_DEPTH 64
#define TD_DEFAULT_MAX_SESSIONS 4096

/** Fills `limits` with the defaults. Cheap. */
TD_API void td_limits_init(td_limits *limits);

/** Decodes event lines (a recording made by `transitionctl play --out`, or a socket's lines)
 *  into whole frames. It keeps each session's last frame to apply delta frames to. */
typedef struct td_decoder td_decoder;

/** A new decoder; `limits` may be NULL (the defaults). Returns NULL only when out of memory.
 *  Destroy it with td_decoder_destroy. */
TD_API td_decoder *td_decoder_new(const td_limits *limits);

/** Frees the decoder and everything it handed out. NULL is allowed. */
TD_API void td_decoder_destroy(td_decoder *decoder);

/**
 * Decodes one line: `bytes` is `length` bytes of one JSON event, with or without its trailing
 * newline (NUL bytes inside are an error). Returns:
 *   TD_OK with `*event` set: the event, valid until the next td_decoder_feed_line,
 *     td_decoder_reset or td_decoder_destroy on this decoder (a frame's layers and strings
 *     too: copy what you keep);
 *   TD_SKIPPED: a delta frame of a session waiting for its key frame after a gap, dropped;
 *   TD_ERR_SEQ_GAP: a delta frame whose seq does not follow the last one: the session now
 *     waits for a key frame (ask `resync`), its deltas until then are TD_SKIPPED;
 *   TD_ERR_NO_KEY_FRAME: a delta frame of a session never keyed, or naming an unknown layer;
 *   TD_ERR_MALFORMED, TD_ERR_LIMIT, TD_ERR_NO_MEMORY: the line is refused (the session's delta
 *     state is dropped when the refused line was one of its frames).
 * A line without `event` (a reply) is TD_ERR_MALFORMED. On a steady stream the decoder
 * allocates nothing: its buffers are reused from line to line.
 */
TD_API int td_decoder_feed_line(td_decoder *decoder, const char *bytes, size_t length, const td_event **event);

/** Forgets every session's state (after a reconnect, or to seek in a recording). */
TD_API void td_decoder_reset(td_decoder *decoder);

/** Forgets one session's state: its next frame must be a key frame or a full frame. */
TD_API void td_decoder_forget(td_decoder *decoder, const char *session);

/** The last error of this decoder (code TD_OK and "" after a success). Owned by the decoder,
 *  valid until its next call. Cheap. */
TD_API const td_error *td_decoder_error(const td_decoder *decoder);

/* ---------------------------------------------------------------------------------------- */
/* The client: a connection to the daemon                                                     */
/* ---------------------------------------------------------------------------------------- */

typedef struct td_client td_client;
typedef struct td_reply td_reply;

/** Called for each event while td_client_dispatch (or another reading call) runs. The event is
 *  valid until the callback returns. The callback may send requests, never destroy the client. */
typedef void (*td_event_fn)(td_client *client, const td_event *event, void *user_data);

/** Called with the reply to one request, from the reading call that read it; the reply is
 *  valid until the callback returns. When the connection is lost first, it is called with a
 *  reply made by the client: ok 0, error code "disconnected". */
typedef void (*td_reply_fn)(td_client *client, const td_reply *reply, void *user_data);

/** Sees every line read from the socket (without its newline) before it is decoded; returning
 *  nonzero drops the line. For recording the raw stream, and for tests. */
typedef int (*td_line_fn)(td_client *client, const char *line, size_t length, void *user_data);

typedef struct td_client_options {
    uint32_t size;            /* sizeof(td_client_options); set by td_client_options_init */
    const char *socket_path;  /* NULL: td_default_socket_path's rules; copied by td_client_new */
    int reconnect;            /* nonzero: ride out a daemon restart (td_client_dispatch) */
    td_event_fn on_event;     /* NULL: events are queued for td_client_next_event */
    void *event_user_data;
    td_line_fn on_line;       /* NULL: none */
    void *line_user_data;
    td_limits limits;         /* bounds of what the daemon may send */
    const char *client_name;  /* the name td_client_hello gives (NULL: "transitiond-c"); copied */
} td_client_options;

/** Fills `options` with the defaults (no path, no reconnect, events queued). Cheap. */
TD_API void td_client_options_init(td_client_options *options);

/**
 * The socket path a client uses when it is given none, the rules of `transitionctl`:
 * $TRANSITIOND_SOCKET when set and not empty, else $XDG_RUNTIME_DIR/transitiond/transitiond.sock
 * when XDG_RUNTIME_DIR is set and not empty, else /tmp/transitiond-<uid>/transitiond.sock.
 * Writes it NUL-terminated into `buffer` when it fits in `capacity` bytes; returns its length
 * (without the NUL) either way, so a caller can retry with a larger buffer. Thread-safe as
 * getenv is.
 */
TD_API size_t td_default_socket_path(char *buffer, size_t capacity);

/** A new client, not yet connected (td_client_connect). `options` may be NULL. Returns NULL
 *  only when out of memory. Destroy it with td_client_destroy. */
TD_API td_client *td_client_new(const td_client_options *options);

/** Closes the connection and frees everything, also replies not taken. NULL is allowed. Not
 *  from inside a callback of this client. */
TD_API void td_client_destroy(td_client *client);

/** Connects to the socket path, blocking only for connect(2) (a Unix socket answers at once
 *  or refuses). Returns TD_OK, or TD_ERR_CONNECT naming the path. With `reconnect` set, a
 *  failed connect leaves the client retrying from td_client_dispatch. */
TD_API int td_client_connect(td_client *client);

/** The socket path the client uses. Owned by the client. Cheap. */
TD_API const char *td_client_socket_path(const td_client *client);

/** The connection's descriptor to wait on for POLLIN (and POLLOUT while td_client_flush says
 *  TD_AGAIN), or -1 while disconnected. It changes after a reconnect: watch the
 *  TD_EVENT_DISCONNECTED and TD_EVENT_RECONNECTED events. Cheap. */
TD_API int td_client_fd(const td_client *client);

/** Whether queued request bytes wait to be written. Cheap. */
TD_API int td_client_want_write(const td_client *client);

/** Writes queued requests without blocking. Returns TD_OK when all are written, TD_AGAIN when
 *  bytes remain (wait for POLLOUT and call again), or an error. */
TD_API int td_client_flush(td_client *client);

/**
 * Reads what the socket holds without blocking and dispatches it: replies to their callbacks
 * (or keeps them for td_client_take_reply), events to `on_event` (or the queue). While
 * disconnected with `reconnect` set, makes the reconnection attempt that is due. Returns TD_OK
 * (also when nothing was ready), or an error: TD_ERR_CLOSED when the daemon went away and
 * `reconnect` is off, TD_ERR_MALFORMED or TD_ERR_LIMIT for bytes the library refuses (the
 * connection is then closed, and with `reconnect` set opened again), TD_ERR_REPLY for an error
 * line the daemon sent with no id (such as a refused connection).
 */
TD_API int td_client_dispatch(td_client *client);

/** Milliseconds until td_client_dispatch must be called again without the descriptor becoming
 *  ready (a reconnection attempt), or -1 for no such deadline. Cheap. */
TD_API int td_client_timeout_ms(const td_client *client);

/** The next queued event (when no `on_event` is set), without reading the socket: TD_OK with
 *  `*event` valid until the next call on this client that reads or returns events, or TD_AGAIN
 *  when none is queued. May return an error like td_client_dispatch (a frame that cannot be
 *  applied). */
TD_API int td_client_next_event(td_client *client, const td_event **event);

/** The blocking form: flushes, then waits up to `timeout_ms` (-1: for ever) for the next event
 *  (queued mode), reconnecting meanwhile when asked. Returns TD_OK with `*event`, TD_ERR_TIMEOUT,
 *  or an error as td_client_dispatch. With `on_event` set, it dispatches until one event was
 *  delivered to the callback and `*event` is set to NULL. */
TD_API int td_client_wait_event(td_client *client, int timeout_ms, const td_event **event);

/** The last error of this client. Owned by the client, valid until its next call. Cheap. */
TD_API const td_error *td_client_error(const td_client *client);

/* ---------------------------------------------------------------------------------------- */
/* Requests and replies                                                                       */
/* ---------------------------------------------------------------------------------------- */

/**
 * Queues the request {"id":<new id>,"op":op,...members}: `members` is a JSON object text of the
 * op's members (docs/protocol.md), or NULL for none; it must not hold `id` or `op`. Nothing is
 * written before td_client_flush (or a blocking call). The reply goes to `callback` with
 * `user_data`; with no callback it is kept until td_client_take_reply takes it. `*id` (may be
 * NULL) receives the request's id. Requests may be queued while disconnected with `reconnect`
 * set: they fail with a "disconnected" reply unless they are written after the reconnection.
 * Returns TD_OK or TD_ERR_ARGUMENT (members not an object, bad op), TD_ERR_CLOSED.
 */
TD_API int td_client_request(td_client *client, const char *op, const char *members, td_reply_fn callback,
                      void *user_data, uint64_t *id);

/** Takes the reply to request `id` (sent without a callback): TD_OK with `*reply` the caller's
 *  (td_reply_destroy), or TD_AGAIN when it has not come yet. Does not read the socket. */
TD_API int td_client_take_reply(td_client *client, uint64_t id, td_reply **reply);

/** Flushes and waits up to `timeout_ms` (-1: for ever) for the reply to request `id` (sent
 *  without a callback), dispatching events meanwhile (queued or to `on_event`). Returns TD_OK
 *  with `*reply` the caller's when the daemon said ok:true, TD_ERR_REPLY with `*reply` still
 *  set when it said ok:false, or TD_ERR_TIMEOUT, TD_ERR_CLOSED (`*reply` NULL). */
TD_API int td_client_wait_reply(td_client *client, uint64_t id, int timeout_ms, td_reply **reply);

/** td_client_request then td_client_wait_reply. */
TD_API int td_client_request_sync(td_client *client, const char *op, const char *members, int timeout_ms,
                           td_reply **reply);

/** Frees a reply taken by td_client_take_reply or a blocking call. NULL is allowed. */
TD_API void td_reply_destroy(td_reply *reply);

/** The request id the reply answers. Cheap. */
TD_API uint64_t td_reply_id(const td_reply *reply);
/** 1 for ok:true, 0 for ok:false. Cheap. */
TD_API int td_reply_ok(const td_reply *reply);
/** The reply line as received (without its newline); owned by the reply. Cheap. */
TD_API const char *td_reply_json(const td_reply *reply, size_t *length);
/** For ok:false, the error's code ("unknown_session") and message; NULL for ok:true. */
TD_API const char *td_reply_error_code(const td_reply *reply);
TD_API const char *td_reply_error_message(const td_reply *reply);
/** The raw JSON text of the top-level member `name` (not NUL-terminated; `*length` bytes,
 *  pointing into td_reply_json's text): TD_OK, or TD_AGAIN when the reply has no such member. */
TD_API int td_reply_member(const td_reply *reply, const char *name, const char **value, size_t *length);
/** The string member `name`, unescaped, into `buffer` (NUL-terminated when it fits): returns its
 *  length, or -1 when the member is missing or not a string. */
TD_API long td_reply_string(const td_reply *reply, const char *name, char *buffer, size_t capacity);
/** The number member `name`: TD_OK, or TD_AGAIN when missing, TD_ERR_MALFORMED when not a number. */
TD_API int td_reply_number(const td_reply *reply, const char *name, double *value);

/* Typed helpers: each builds the members of one op and calls td_client_request (same
 * callback, user_data and id rules, same returns). Optional numbers are given by pointer (NULL:
 * left out); strings are escaped by the library. */

/** hello, stating the client's name (td_client_options.client_name) and TD_PROTOCOL_VERSION: the
 *  reply has `server`, `version`, `protocol`, `pid`, `admin` and `features`; a daemon that does
 *  not speak this protocol replies `unsupported_protocol`. */
TD_API int td_client_hello(td_client *client, td_reply_fn callback, void *user_data, uint64_t *id);

typedef struct td_begin_options {
    uint32_t size;           /* sizeof(td_begin_options) */
    const char *animator;    /* NULL: the route's */
    const double *duration;  /* seconds; NULL: the animator's */
    int interactive;         /* nonzero: wait for update */
    const char *session;     /* NULL: the daemon names it */
    const char *params;      /* a JSON object text of knobs, or NULL */
    const double *touch;     /* two numbers [x, y] with interactive, or NULL */
} td_begin_options;

/** begin with `context`, a JSON object text (docs/protocol.md, "begin"); `options` may be NULL.
 *  The reply's `session` member names the session (td_reply_string). */
TD_API int td_client_begin(td_client *client, const char *context, const td_begin_options *options,
                    td_reply_fn callback, void *user_data, uint64_t *id);

typedef enum td_clock { TD_CLOCK_DEFAULT = 0, TD_CLOCK_WALL = 1, TD_CLOCK_VIRTUAL = 2 } td_clock;
typedef enum td_encoding { TD_ENCODING_DEFAULT = 0, TD_ENCODING_FULL = 1, TD_ENCODING_DELTA = 2 } td_encoding;

/** subscribe to `session` ("*" for every session) at `fps` (0: the daemon's default). On a
 *  delta subscription the client applies the deltas: events carry whole frames, and a gap in
 *  seq makes the client send `resync` by itself. With `reconnect`, the subscription is renewed
 *  after a daemon restart. The reply's `subscription` member is its number. */
TD_API int td_client_subscribe(td_client *client, const char *session, double fps, td_clock clock,
                        td_encoding encoding, int timeline, td_reply_fn callback, void *user_data, uint64_t *id);

/** unsubscribe and resync take a subscription number (the subscribe reply's `subscription`). */
TD_API int td_client_unsubscribe(td_client *client, int64_t subscription, td_reply_fn callback, void *user_data, uint64_t *id);
TD_API int td_client_resync(td_client *client, int64_t subscription, td_reply_fn callback, void *user_data, uint64_t *id);

/** update an interactive session with `progress` and/or `touch` (two numbers; either may be NULL,
 *  not both). */
TD_API int td_client_update(td_client *client, const char *session, const double *progress, const double *touch,
                     td_reply_fn callback, void *user_data, uint64_t *id);

/** seek to `progress`. */
TD_API int td_client_seek(td_client *client, const char *session, double progress, td_reply_fn callback,
                   void *user_data, uint64_t *id);

/** A control op on `session` without other members: "pause", "resume", "reverse", "end",
 *  "finish" or "cancel". */
TD_API int td_client_control(td_client *client, const char *op, const char *session, td_reply_fn callback,
                      void *user_data, uint64_t *id);

/** The finger lets go. `op` "finish" or "cancel": with a release `velocity` and/or the finger's
 *  `touch_velocity` (two numbers, points per second); either may be NULL. `op` "release": the
 *  daemon decides between finishing and cancelling (velocity first, then progress; the reply's
 *  `state` is "finishing" or "cancelling"); `touch_velocity` is required and `velocity` must be
 *  NULL. */
TD_API int td_client_release(td_client *client, const char *op, const char *session, const double *velocity,
                      const double *touch_velocity, td_reply_fn callback, void *user_data, uint64_t *id);

/* Display pacing (docs/protocol.md, "Display pacing"): frames evaluated for the vblanks of the
 * subscriber's display and sent a lead before each; presentation feedback; the pull of one
 * frame; the daemon's clock. Every instant is in seconds on the daemon's clock,
 * CLOCK_MONOTONIC (td_monotonic_seconds on the same machine; td_client_clock maps another). */

/** A display's timing. */
typedef struct td_display {
    uint32_t size;      /* sizeof(td_display) */
    double period;      /* the refresh period in seconds, in [0.002, 1] */
    double vblank;      /* one vblank instant on the daemon's clock, within an hour of now */
    const double *lead; /* seconds before each vblank its frame is sent, in [0, 0.1]; NULL: the
                           daemon's pacingLead (0.004) */
} td_display;

/** CLOCK_MONOTONIC in seconds: the daemon's clock, for a client on the same machine. Cheap,
 *  thread-safe. */
TD_API double td_monotonic_seconds(void);

/** subscribe to `session` ("*" for every session) paced by `display`: each frame's `t` is a
 *  vblank minus the session's start, and it arrives the lead before that vblank. Otherwise as
 *  td_client_subscribe (wall clock); with `reconnect`, the same timing is asked again after a
 *  restart (a vblank stays a vblank of the same display a period later). */
TD_API int td_client_subscribe_display(td_client *client, const char *session, const td_display *display,
                                td_encoding encoding, td_reply_fn callback, void *user_data, uint64_t *id);

/** display: the timing of wall subscription `subscription` changes (a mode switch, variable
 *  refresh); its next frame shows the first vblank of the new timing after now. */
TD_API int td_client_display(td_client *client, int64_t subscription, const td_display *display,
                      td_reply_fn callback, void *user_data, uint64_t *id);

/** presented: frame `seq` of `session`, sent on display-paced `subscription`, was presented
 *  at `time` (Wayland's presentation feedback). The daemon locks its phase and lead to these
 *  reports; each frame may be reported once, among the subscription's last 64 frames. */
TD_API int td_client_presented(td_client *client, int64_t subscription, const char *session, uint64_t seq,
                        double time, td_reply_fn callback, void *user_data, uint64_t *id);

/** frame: the frame of `session` at instant `at`, at once, with `geometry` ("quad") or NULL.
 *  The reply's `frame` member (td_reply_member) is a whole `frame` event line: decode it with
 *  td_decoder_feed_line. */
TD_API int td_client_pull_frame(td_client *client, const char *session, double at, const char *geometry,
                         td_reply_fn callback, void *user_data, uint64_t *id);

/** clock: the reply's `now` member (td_reply_number) is the daemon's clock. */
TD_API int td_client_clock(td_client *client, td_reply_fn callback, void *user_data, uint64_t *id);

#ifdef __cplusplus
}
#endif

#endif
