/* decoder.h: the decoder's state, shared with the client (internal). */
#ifndef TD_DECODER_H
#define TD_DECODER_H

/* Completed sessions whose delta state is kept, for another stream of theirs still reading. */
#define TD_KEPT_COMPLETED_SESSIONS 64

#include "json_scan.h"
#include "transitiond_client.h"

/** One layer of a session's last frame, with the storage of its strings. */
typedef struct td_layer_slot {
    td_layer layer;
    td_buffer id;
    td_buffer content;
    td_buffer clip_to;
} td_layer_slot;

/** The last whole frame of one session (or the scratch frame of full subscriptions). */
typedef struct td_frame_state {
    td_frame frame;
    td_buffer session;
    td_layer_slot **slots;       /* [0, count) the frame's layers; [count, allocated) spare */
    size_t count;
    size_t allocated;
    size_t slots_capacity;
    const td_layer **pointers;   /* the frame's layer pointers, rebuilt each frame */
    size_t pointers_capacity;
    uint64_t last_seq;
    int keyed;                   /* a key frame came: deltas apply */
    int awaiting_key;            /* a gap: deltas are skipped until a key frame */
    int last_full;               /* the session's last frame was a full subscription's */
    int completed;               /* a complete came: the state is kept for a stream still reading */
} td_frame_state;

struct td_decoder {
    td_limits limits;
    td_error error;
    char message[256];
    td_event event;
    td_frame_state scratch;      /* frames of full subscriptions */
    td_frame_state **sessions;   /* [0, session_count) in use; the rest spare */
    size_t session_count;
    size_t session_allocated;
    size_t session_capacity;
    td_buffer name;              /* member names with escapes */
    td_buffer session_text;      /* a non-frame event's session */
    td_buffer event_name;
    td_buffer animator, operation, clock, encoding;
    td_buffer text;              /* scratch for strings read and dropped */
    size_t *clip_scratch;        /* check_clip_targets's id table and marks, reused */
    size_t clip_scratch_capacity;
};

/** Whether the last frame of `session` was a full subscription's (or it has no delta state). */
int td_decoder_last_frame_full(td_decoder *decoder, const char *session);

/** Sets the decoder's error; returns `code`. */
int td_decoder_fail(td_decoder *decoder, int code, const char *format, ...);

#endif
