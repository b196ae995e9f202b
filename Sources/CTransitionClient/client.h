/* client.h: the client's state, shared by its files (internal). */
#ifndef TD_CLIENT_INTERNAL_H
#define TD_CLIENT_INTERNAL_H

#include "decoder.h"
#include "json_scan.h"
#include "reply.h"
#include "transitiond_client.h"

/** What the client does with a reply besides handing it out. */
typedef enum td_request_kind {
    TD_REQUEST_PLAIN = 0,
    TD_REQUEST_SUBSCRIBE,   /* the caller's subscribe: the reply confirms a subscription */
    TD_REQUEST_UNSUBSCRIBE, /* the caller's unsubscribe: an ok reply ends a subscription */
    TD_REQUEST_RENEW,       /* the client's own subscribe after a reconnect: not handed out */
    TD_REQUEST_RESYNC       /* the client's own resync after a gap: not handed out */
} td_request_kind;

typedef struct td_pending {
    uint64_t id;
    td_reply_fn callback;
    void *user_data;
    td_request_kind kind;
    int64_t subscription;   /* an unsubscribe's argument */
} td_pending;

/** A subscription the client renews after a reconnect and resyncs after a gap. */
typedef struct td_subscription {
    uint64_t request_id;    /* the subscribe request that made it (or renewed it last) */
    int64_t number;         /* the daemon's number, once confirmed */
    int confirmed;
    int delta;
    char *session;          /* the session, or "*" */
    char *members;          /* the subscribe request's members, to send again */
} td_subscription;

struct td_client {
    td_client_options options;
    char *path;
    char *name; /* the name hello gives */
    int fd;
    int connected_once;
    int reconnecting;         /* waiting for reconnect_at */
    int attempt;              /* failed attempts since the connection was lost */
    double reconnect_at;      /* CLOCK_MONOTONIC seconds */
    td_error error;
    char message[320];
    td_decoder *decoder;
    td_buffer in;
    size_t in_start;
    td_buffer out;
    size_t out_start;
    uint64_t next_id;
    td_pending *pending;
    size_t pending_count, pending_capacity;
    td_reply **stored;
    size_t stored_count, stored_capacity;
    td_buffer queue;          /* event lines waiting for td_client_next_event, each ended by '\n' */
    size_t queue_start;
    td_buffer current;        /* the line of the event handed out last */
    td_subscription *subscriptions;
    size_t subscription_count, subscription_capacity;
    td_event made;            /* an event the client made (disconnected, reconnected) */
    size_t delivered;         /* events handed to on_event (for td_client_wait_event) */
};

/** Sets the client's error; returns `code`. */
int td_client_fail(td_client *client, int code, const char *format, ...);

/** Queues one request line built from `op` and `members` (already checked); records it. */
int td_client_queue(td_client *client, const char *op, const char *members, size_t members_length,
                    td_request_kind kind, int64_t subscription, td_reply_fn callback, void *user_data,
                    uint64_t *id);

#endif
