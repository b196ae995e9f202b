/*
 * client_test.c: the C client library against a real transitiond, and its decoder against
 * hostile lines. Run by Tests/IntegrationTests/CClientLibraryTests.swift (so by `make test`)
 * and by `make sanitize` built with AddressSanitizer and UndefinedBehaviorSanitizer:
 *
 *   client_test DAEMON PLUGIN_DIR SCENE_DIR LIBRARY.so
 *
 * It starts the daemon on a socket in a temporary directory (and restarts it for the
 * reconnection test), and exits 0 when every check holds; each failed check prints one line.
 */
#define _POSIX_C_SOURCE 200809L

#include "frame_text.h"
#include "json_scan.h"
#include "transitiond_client.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WAIT_MS 20000

static int failures;
static int checks;
static const char *daemon_path, *plugin_dir, *scene_dir, *library_path;
static char directory[256], socket_path[300];
static pid_t daemon_pid = -1;

#define CHECK(condition, ...)                                                   \
    do {                                                                        \
        checks++;                                                               \
        if (!(condition)) {                                                     \
            failures++;                                                         \
            fprintf(stderr, "client_test.c:%d: check failed: %s: ", __LINE__, #condition); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fprintf(stderr, "\n");                                              \
        }                                                                       \
    } while (0)

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the daemon ---- */

static void set_address(struct sockaddr_un *address, const char *path) {
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    size_t length = strlen(path);
    if (length >= sizeof address->sun_path) length = sizeof address->sun_path - 1;
    memcpy(address->sun_path, path, length);
}

static int socket_answers(void) {
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address;
    set_address(&address, socket_path);
    int ok = connect(fd, (struct sockaddr *)&address, sizeof address) == 0;
    close(fd);
    return ok;
}

static void start_daemon(void) {
    char log_path[400];
    snprintf(log_path, sizeof log_path, "%s/daemon.log", directory);
    daemon_pid = fork();
    if (daemon_pid == 0) {
        int log = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0600);
        if (log >= 0) dup2(log, 2);
        execl(daemon_path, daemon_path, "--socket", socket_path, "--plugin-path", plugin_dir, (char *)NULL);
        _exit(127);
    }
    double deadline = now() + WAIT_MS / 1000.0;
    while (!socket_answers()) {
        if (now() > deadline) {
            fprintf(stderr, "client_test: the daemon did not answer on %s (see %s)\n", socket_path, log_path);
            exit(1);
        }
        poll(NULL, 0, 10);
    }
}

static void stop_daemon(void) {
    if (daemon_pid <= 0) return;
    kill(daemon_pid, SIGTERM);
    waitpid(daemon_pid, NULL, 0);
    daemon_pid = -1;
}

/* ---- scenes ---- */

static char *read_file(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *bytes = malloc((size_t)size + 1);
    if (fread(bytes, 1, (size_t)size, file) != (size_t)size) size = 0;
    bytes[size] = '\0';
    fclose(file);
    return bytes;
}

/* The begin context of a scene: its context members (`transitionctl play` leaves out
 * description, animator, duration, interactive and hints). */
static char *scene_context(const char *name) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", scene_dir, name);
    char *scene = read_file(path);
    if (!scene) {
        fprintf(stderr, "client_test: cannot read %s\n", path);
        exit(1);
    }
    static const char *const kept[] = {"operation", "container", "from", "to", "selected", "match"};
    td_json_cursor cursor;
    td_buffer out = {0}, name_scratch = {0};
    td_json_init(&cursor, scene, strlen(scene), 64);
    td_buffer_append(&out, "{", 1);
    td_json_expect(&cursor, '{', "object");
    do {
        const char *member;
        size_t length;
        if (td_json_name(&cursor, &name_scratch, &member, &length) != 0) break;
        int keep = 0;
        for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
            keep |= strlen(kept[i]) == length && memcmp(kept[i], member, length) == 0;
        if (keep) {
            if (out.length > 1) td_buffer_append(&out, ",", 1);
            td_buffer_append(&out, "\"", 1);
            td_buffer_append(&out, member, length);
            td_buffer_append(&out, "\":", 2);
            td_json_compact_value(&cursor, 64, &out);
        } else {
            td_json_skip_value(&cursor, 64);
        }
    } while (td_json_accept(&cursor, ','));
    td_buffer_append(&out, "}", 1);
    out.bytes[out.length] = '\0';
    td_buffer_free(&name_scratch);
    free(scene);
    return out.bytes;
}

static td_client *connect_client(const td_client_options *given) {
    td_client_options options;
    if (given) options = *given;
    else td_client_options_init(&options);
    options.socket_path = socket_path;
    td_client *client = td_client_new(&options);
    int status = td_client_connect(client);
    CHECK(status == TD_OK, "connect: %s", td_client_error(client)->message);
    return client;
}

/* Begins the album flip's push (virtual frames need a session); returns the session id. */
static void begin_album_flip(td_client *client, int interactive, char *session, size_t capacity) {
    char *context = scene_context("album-flip-push.json");
    td_begin_options options = {sizeof options, "album-flip", NULL, interactive, NULL, NULL, NULL};
    uint64_t id;
    td_reply *reply = NULL;
    int status = td_client_begin(client, context, &options, NULL, NULL, &id);
    if (status == TD_OK) status = td_client_wait_reply(client, id, WAIT_MS, &reply);
    CHECK(status == TD_OK, "begin: %s", td_client_error(client)->message);
    session[0] = '\0';
    if (reply) {
        char animator[64] = "";
        CHECK(td_reply_string(reply, "session", session, capacity) > 0, "the begin reply names no session");
        td_reply_string(reply, "animator", animator, sizeof animator);
        CHECK(strcmp(animator, "album-flip") == 0, "begin served by %s", animator);
    }
    td_reply_destroy(reply);
    free(context);
}

static int64_t subscribe(td_client *client, const char *session, double fps, td_clock clock, td_encoding encoding) {
    uint64_t id;
    td_reply *reply = NULL;
    int status = td_client_subscribe(client, session, fps, clock, encoding, 0, NULL, NULL, &id);
    if (status == TD_OK) status = td_client_wait_reply(client, id, WAIT_MS, &reply);
    CHECK(status == TD_OK, "subscribe: %s", td_client_error(client)->message);
    double number = -1;
    if (reply) td_reply_number(reply, "subscription", &number);
    td_reply_destroy(reply);
    return (int64_t)number;
}

/* A frame as exact text (frame_text.h), with its session id left out. */
static char *frame_string(const td_frame *frame) {
    char *text = NULL;
    size_t length = 0;
    FILE *out = open_memstream(&text, &length);
    td_frame copy = *frame;
    copy.session = "S";
    frame_text_write(out, &copy);
    fclose(out);
    return text;
}

/* ---- tests ---- */

static void test_hello(void) {
    td_client *client = connect_client(NULL);
    td_reply *reply = NULL;
    int status = td_client_request_sync(client, "hello", NULL, WAIT_MS, &reply);
    CHECK(status == TD_OK, "hello: %s", td_client_error(client)->message);
    if (reply) {
        char server[64] = "";
        double protocol = 0;
        td_reply_string(reply, "server", server, sizeof server);
        td_reply_number(reply, "protocol", &protocol);
        CHECK(strcmp(server, "transitiond") == 0, "server is %s", server);
        CHECK(protocol == TD_PROTOCOL_VERSION, "protocol is %g", protocol);
        CHECK(td_reply_ok(reply) == 1 && td_reply_error_code(reply) == NULL, "hello not ok");
    }
    td_reply_destroy(reply);
    /* The typed helper and a callback. */
    uint64_t id;
    CHECK(td_client_hello(client, NULL, NULL, &id) == TD_OK, "hello helper");
    CHECK(td_client_wait_reply(client, id, WAIT_MS, &reply) == TD_OK, "hello helper reply");
    td_reply_destroy(reply);
    td_client_destroy(client);
}

static void test_daemon_errors(void) {
    td_client *client = connect_client(NULL);
    td_reply *reply = NULL;
    int status = td_client_request_sync(client, "pause", "{\"session\":\"s9\"}", WAIT_MS, &reply);
    CHECK(status == TD_ERR_REPLY, "pause of no session gave %s", td_status_name(status));
    CHECK(reply && strcmp(td_reply_error_code(reply), "unknown_session") == 0, "code %s",
          reply ? td_reply_error_code(reply) : "(none)");
    CHECK(strstr(td_client_error(client)->message, "no session named s9") != NULL, "message %s",
          td_client_error(client)->message);
    td_reply_destroy(reply);
    status = td_client_request_sync(client, "fly", NULL, WAIT_MS, &reply);
    CHECK(status == TD_ERR_REPLY && reply && strcmp(td_reply_error_code(reply), "unknown_op") == 0, "fly: %s",
          td_client_error(client)->message);
    td_reply_destroy(reply);
    double progress = 2;
    uint64_t id;
    td_client_update(client, "s9", &progress, NULL, NULL, NULL, &id);
    status = td_client_wait_reply(client, id, WAIT_MS, &reply);
    CHECK(status == TD_ERR_REPLY, "update out of range gave %s", td_status_name(status));
    td_reply_destroy(reply);
    status = td_client_request_sync(client, "begin", "{\"context\":{\"operation\":\"push\",\"container\":[100,200],"
                                    "\"from\":{\"layers\":[{\"id\":\"a\",\"frame\":[0,0,-5,10]}]},\"to\":{}}}",
                                    WAIT_MS, &reply);
    CHECK(status == TD_ERR_REPLY && reply && strcmp(td_reply_error_code(reply), "invalid_context") == 0,
          "bad context: %s", td_client_error(client)->message);
    td_reply_destroy(reply);
    /* Refused by the library before anything is sent. */
    CHECK(td_client_request(client, "hello", "[1]", NULL, NULL, NULL) == TD_ERR_ARGUMENT, "members not an object");
    CHECK(td_client_request(client, "hello", "{\"id\":3}", NULL, NULL, NULL) == TD_ERR_ARGUMENT, "members with id");
    CHECK(td_client_request(client, "hello", "{\"a\":", NULL, NULL, NULL) == TD_ERR_ARGUMENT, "cut members");
    double nan_value = NAN;
    CHECK(td_client_seek(client, "s1", nan_value, NULL, NULL, NULL) == TD_ERR_ARGUMENT, "a NaN progress");
    CHECK(td_client_control(client, "fly", "s1", NULL, NULL, NULL) == TD_ERR_ARGUMENT, "an unknown control op");
    /* The connection is still usable. */
    status = td_client_request_sync(client, "stats", NULL, WAIT_MS, &reply);
    CHECK(status == TD_OK, "stats after errors: %s", td_client_error(client)->message);
    td_reply_destroy(reply);
    td_client_destroy(client);
}

/* The frames of one album flip, 60 fps virtual, as full frames: frame_string by seq. */
#define FLIP_FRAMES 61
static char *reference[FLIP_FRAMES];

static void test_full_and_delta_agree(void) {
    td_client *client = connect_client(NULL);
    char session[130];
    begin_album_flip(client, 0, session, sizeof session);
    int64_t full = subscribe(client, session, 60, TD_CLOCK_VIRTUAL, TD_ENCODING_FULL);
    int64_t delta = subscribe(client, session, 60, TD_CLOCK_VIRTUAL, TD_ENCODING_DELTA);
    CHECK(full >= 0 && delta >= 0 && full != delta, "subscriptions %lld %lld", (long long)full, (long long)delta);
    char *from_delta[FLIP_FRAMES] = {0};
    int completes = 0, begins = 0, full_frames = 0, delta_frames = 0, keys = 0;
    while (completes < 2) {
        const td_event *event;
        int status = td_client_wait_event(client, WAIT_MS, &event);
        CHECK(status == TD_OK, "waiting for frames: %s", td_client_error(client)->message);
        if (status != TD_OK) break;
        if (event->type == TD_EVENT_BEGIN) {
            begins++;
            CHECK(strcmp(event->clock, "virtual") == 0, "clock %s", event->clock);
            CHECK(event->container[0] == 390 && event->container[1] == 844, "container %g %g", event->container[0],
                  event->container[1]);
            CHECK(event->fps == 60 && event->duration > 0, "fps %g duration %g", event->fps, event->duration);
            CHECK(strcmp(event->animator, "album-flip") == 0 && strcmp(event->operation, "push") == 0, "animator %s",
                  event->animator);
        } else if (event->type == TD_EVENT_FRAME) {
            const td_frame *frame = event->frame;
            CHECK(frame->seq < FLIP_FRAMES, "seq %llu", (unsigned long long)frame->seq);
            if (frame->seq >= FLIP_FRAMES) continue;
            CHECK(fabs(frame->t - frame->seq / 60.0) < 1e-6, "virtual t %g at seq %llu", frame->t,
                  (unsigned long long)frame->seq);
            CHECK(frame->layer_count > 10, "%zu layers", frame->layer_count);
            char **slot = event->key == -1 ? &reference[frame->seq] : &from_delta[frame->seq];
            CHECK(*slot == NULL, "seq %llu twice", (unsigned long long)frame->seq);
            free(*slot);
            *slot = frame_string(frame);
            if (event->key == -1) full_frames++;
            else delta_frames++;
            if (event->key == 1) keys++;
            if (frame->seq == FLIP_FRAMES - 1) CHECK(frame->progress == 1, "last progress %g", frame->progress);
        } else if (event->type == TD_EVENT_COMPLETE) {
            completes++;
            CHECK(event->finished == 1, "finished %d", event->finished);
        }
    }
    CHECK(begins == 2, "%d begin events", begins);
    CHECK(full_frames == FLIP_FRAMES && delta_frames == FLIP_FRAMES, "%d full, %d delta frames", full_frames,
          delta_frames);
    CHECK(keys == 1, "%d key frames on the delta stream", keys);
    for (int i = 0; i < FLIP_FRAMES; i++) {
        CHECK(reference[i] && from_delta[i] && strcmp(reference[i], from_delta[i]) == 0,
              "the delta stream's whole frame %d differs from the full stream's", i);
        free(from_delta[i]);
    }
    td_client_destroy(client);
}

/* One 240 fps wall-clock delta subscription of the album flip, read as it comes: every frame
 * arrives, seq after seq, with no gap and no key frame after the first (a frame the client had
 * not read in time would have been coalesced, and the next sent as a key frame). */
static void test_one_240_fps_subscription_keeps_up(void) {
    td_client *client = connect_client(NULL);
    char session[130];
    begin_album_flip(client, 0, session, sizeof session);
    subscribe(client, session, 240, TD_CLOCK_WALL, TD_ENCODING_DELTA);
    long long first = -1, last = -1;
    int frames = 0, keys = 0, gaps = 0, complete = 0;
    double progress = 0;
    while (!complete) {
        const td_event *event;
        int status = td_client_wait_event(client, WAIT_MS, &event);
        CHECK(status == TD_OK, "waiting for 240 fps frames: %s", td_client_error(client)->message);
        if (status != TD_OK) break;
        if (event->type == TD_EVENT_FRAME) {
            long long seq = (long long)event->frame->seq;
            if (first < 0) first = seq;
            else if (seq != last + 1) gaps++;
            last = seq;
            frames++;
            if (event->key == 1) keys++;
            progress = event->frame->progress;
        } else if (event->type == TD_EVENT_COMPLETE) {
            complete = 1;
        }
    }
    CHECK(gaps == 0, "%d seq gaps in %d frames at 240 fps", gaps, frames);
    CHECK(keys == 1, "%d key frames at 240 fps (a coalesced frame is followed by a key frame)", keys);
    CHECK(frames > 100 && progress == 1, "%d frames at 240 fps, the last at progress %g", frames, progress);
    td_client_destroy(client);
}

/* Drops the fifth delta frame line, so that the stream has a gap. */
static int drop_fifth_delta(td_client *client, const char *line, size_t length, void *user_data) {
    (void)client;
    int *deltas = user_data;
    static const char tail[] = "\"key\":false}";
    if (length >= sizeof tail - 1 && memcmp(line + length - (sizeof tail - 1), tail, sizeof tail - 1) == 0)
        return ++*deltas == 5;
    return 0;
}

/* A wall-clock flip read as full and as delta frames, the fifth delta dropped: the client
 * sends resync by itself, skips the deltas until the key frame, and every whole frame of the
 * delta stream equals the full stream's frame of the same seq. */
#define WALL_FRAMES 400
static void test_resync_after_gap(void) {
    int deltas = 0;
    td_client_options options;
    td_client_options_init(&options);
    options.on_line = drop_fifth_delta;
    options.line_user_data = &deltas;
    td_client *client = connect_client(&options);
    char session[130];
    begin_album_flip(client, 0, session, sizeof session);
    subscribe(client, session, 60, TD_CLOCK_WALL, TD_ENCODING_FULL);
    subscribe(client, session, 60, TD_CLOCK_WALL, TD_ENCODING_DELTA);
    char *full[WALL_FRAMES] = {0}, *delta[WALL_FRAMES] = {0};
    int completes = 0, keys_after_gap = 0, delta_frames = 0;
    long last_seq = -1, missing = 0;
    while (completes < 2) {
        const td_event *event;
        int status = td_client_wait_event(client, WAIT_MS, &event);
        CHECK(status == TD_OK, "waiting for frames: %s", td_client_error(client)->message);
        if (status != TD_OK) break;
        if (event->type == TD_EVENT_COMPLETE) completes++;
        if (event->type != TD_EVENT_FRAME || event->frame->seq >= WALL_FRAMES) continue;
        const td_frame *frame = event->frame;
        char **slot = event->key == -1 ? &full[frame->seq] : &delta[frame->seq];
        free(*slot);
        *slot = frame_string(frame);
        if (event->key == -1) continue;
        delta_frames++;
        if ((long)frame->seq > last_seq) {
            missing += (long)frame->seq - last_seq - 1;
            last_seq = (long)frame->seq;
        }
        if (missing > 0 && event->key == 1) keys_after_gap++;
    }
    int compared = 0;
    for (int i = 0; i < WALL_FRAMES; i++) {
        if (delta[i] && full[i]) {
            CHECK(strcmp(delta[i], full[i]) == 0, "the delta stream's whole frame %d differs from the full stream's", i);
            compared++;
        }
        free(full[i]);
        free(delta[i]);
    }
    CHECK(deltas >= 5, "only %d deltas came", deltas);
    CHECK(missing >= 1, "no frame is missing (%ld)", missing);
    CHECK(keys_after_gap >= 1, "no key frame came after the gap");
    CHECK(compared == delta_frames && compared > 5, "%d delta frames, %d compared", delta_frames, compared);
    td_client_destroy(client);
}

static void test_interactive_update_and_cancel(void) {
    td_client *client = connect_client(NULL);
    char session[130];
    begin_album_flip(client, 1, session, sizeof session);
    subscribe(client, session, 60, TD_CLOCK_WALL, TD_ENCODING_DELTA);
    double targets[] = {0.5, 0.25, 0.75};
    for (size_t i = 0; i < sizeof targets / sizeof targets[0]; i++) {
        uint64_t id;
        td_reply *reply = NULL;
        td_client_update(client, session, &targets[i], NULL, NULL, NULL, &id);
        int status = td_client_wait_reply(client, id, WAIT_MS, &reply);
        CHECK(status == TD_OK, "update: %s", td_client_error(client)->message);
        char state[32] = "";
        if (reply) td_reply_string(reply, "state", state, sizeof state);
        CHECK(strcmp(state, "interactive") == 0, "state %s", state);
        td_reply_destroy(reply);
        double seen = -1;
        while (seen != targets[i]) {
            const td_event *event;
            status = td_client_wait_event(client, WAIT_MS, &event);
            CHECK(status == TD_OK, "waiting for the frame of progress %g: %s", targets[i], td_client_error(client)->message);
            if (status != TD_OK) break;
            if (event->type == TD_EVENT_FRAME) seen = event->frame->progress;
        }
    }
    uint64_t id;
    td_reply *reply = NULL;
    double velocity = -1;
    td_client_release(client, "cancel", session, &velocity, NULL, NULL, NULL, &id);
    int status = td_client_wait_reply(client, id, WAIT_MS, &reply);
    CHECK(status == TD_OK, "cancel: %s", td_client_error(client)->message);
    td_reply_destroy(reply);
    double last_progress = -1;
    int finished = -1;
    for (;;) {
        const td_event *event;
        status = td_client_wait_event(client, WAIT_MS, &event);
        CHECK(status == TD_OK, "waiting for complete: %s", td_client_error(client)->message);
        if (status != TD_OK) break;
        if (event->type == TD_EVENT_FRAME) last_progress = event->frame->progress;
        if (event->type == TD_EVENT_COMPLETE) {
            finished = event->finished;
            break;
        }
    }
    CHECK(finished == 0, "a cancelled session completed with finished %d", finished);
    CHECK(last_progress == 0, "the last frame after cancel has progress %g", last_progress);
    if (reference[0]) {
        /* The final frame of a cancel is exactly the initial state. */
    }
    td_client_destroy(client);
}

/* The back swipe: a default-slide pop begun with the finger at the left edge, dragged past
 * half-way, let go slowly with op "release": the daemon finishes it. */
static void test_back_swipe_release(void) {
    td_client *client = connect_client(NULL);
    char *context = scene_context("default-slide-pop.json");
    double grab[2] = {4, 400};
    td_begin_options options = {sizeof options, "default-slide", NULL, 1, NULL, NULL, grab};
    uint64_t id;
    td_reply *reply = NULL;
    int status = td_client_begin(client, context, &options, NULL, NULL, &id);
    if (status == TD_OK) status = td_client_wait_reply(client, id, WAIT_MS, &reply);
    CHECK(status == TD_OK, "begin: %s", td_client_error(client)->message);
    char session[130] = "";
    if (reply) td_reply_string(reply, "session", session, sizeof session);
    td_reply_destroy(reply);
    free(context);
    double touch[2] = {4 + 0.7 * 390, 400};
    reply = NULL;
    status = td_client_update(client, session, NULL, touch, NULL, NULL, &id);
    if (status == TD_OK) status = td_client_wait_reply(client, id, WAIT_MS, &reply);
    CHECK(status == TD_OK, "update: %s", td_client_error(client)->message);
    double progress = -1;
    if (reply) td_reply_number(reply, "progress", &progress);
    CHECK(fabs(progress - 0.7) < 1e-9, "the drag set progress %g", progress);
    td_reply_destroy(reply);
    double velocity = 0;
    CHECK(td_client_release(client, "release", session, &velocity, touch, NULL, NULL, &id) == TD_ERR_ARGUMENT,
          "release took a progress velocity");
    double slow[2] = {-300, 0};
    reply = NULL;
    status = td_client_release(client, "release", session, NULL, slow, NULL, NULL, &id);
    if (status == TD_OK) status = td_client_wait_reply(client, id, WAIT_MS, &reply);
    CHECK(status == TD_OK, "release: %s", td_client_error(client)->message);
    char state[32] = "";
    if (reply) td_reply_string(reply, "state", state, sizeof state);
    CHECK(strcmp(state, "finishing") == 0, "a slow release past half-way is %s", state);
    td_reply_destroy(reply);
    td_client_destroy(client);
}

typedef struct restart_log {
    int stopping, disconnected, reconnected, begins, completes;
} restart_log;

static void count_restart_event(td_client *client, const td_event *event, void *user_data) {
    (void)client;
    restart_log *log = user_data;
    if (event->type == TD_EVENT_STOPPING) log->stopping++;
    if (event->type == TD_EVENT_DISCONNECTED) log->disconnected++;
    if (event->type == TD_EVENT_RECONNECTED) log->reconnected++;
    if (event->type == TD_EVENT_BEGIN && log->reconnected) log->begins++;
    if (event->type == TD_EVENT_COMPLETE && log->reconnected) log->completes++;
}

/* Runs the client's loop as a caller's poll(2) loop would, until `done` or the deadline. */
static int run_loop(td_client *client, const int *done, int target) {
    double deadline = now() + WAIT_MS / 1000.0;
    while (*done < target && now() < deadline) {
        td_client_flush(client);
        int fd = td_client_fd(client);
        int timeout = td_client_timeout_ms(client);
        if (timeout < 0 || timeout > 100) timeout = 100;
        struct pollfd poller = {fd, (short)(POLLIN | (td_client_want_write(client) ? POLLOUT : 0)), 0};
        poll(fd >= 0 ? &poller : NULL, fd >= 0 ? 1 : 0, timeout);
        int status = td_client_dispatch(client);
        if (status != TD_OK && status != TD_ERR_CLOSED) return status;
    }
    return *done >= target ? TD_OK : TD_ERR_TIMEOUT;
}

static void test_reconnect_after_restart(void) {
    restart_log log = {0, 0, 0, 0, 0};
    td_client_options options;
    td_client_options_init(&options);
    options.reconnect = 1;
    options.on_event = count_restart_event;
    options.event_user_data = &log;
    td_client *client = connect_client(&options);
    uint64_t id;
    int replied = 0;
    td_client_subscribe(client, "*", 30, TD_CLOCK_WALL, TD_ENCODING_DELTA, 0, NULL, NULL, &id);
    td_reply *reply = NULL;
    CHECK(td_client_wait_reply(client, id, WAIT_MS, &reply) == TD_OK, "subscribe *: %s", td_client_error(client)->message);
    td_reply_destroy(reply);
    int old_fd = td_client_fd(client);
    stop_daemon();
    CHECK(run_loop(client, &log.disconnected, 1) == TD_OK, "no disconnection seen");
    CHECK(log.stopping == 1, "%d stopping events", log.stopping);
    CHECK(td_client_fd(client) == -1, "a descriptor while the daemon is down");
    /* A client started while the daemon is down: it connects once the daemon is up, and sends
     * its subscribe once. */
    restart_log late_log = {0, 0, 0, 0, 0};
    td_client_options late_options = options;
    late_options.event_user_data = &late_log;
    late_options.socket_path = socket_path;
    td_client *late = td_client_new(&late_options);
    CHECK(td_client_connect(late) == TD_ERR_CONNECT, "connected with no daemon");
    CHECK(td_client_timeout_ms(late) >= 0, "no reconnection attempt is due");
    CHECK(td_client_subscribe(late, "*", 30, TD_CLOCK_WALL, TD_ENCODING_FULL, 0, NULL, NULL, NULL) == TD_OK,
          "subscribe while disconnected: %s", td_client_error(late)->message);
    start_daemon();
    CHECK(run_loop(client, &log.reconnected, 1) == TD_OK, "no reconnection: %s", td_client_error(client)->message);
    CHECK(run_loop(late, &late_log.reconnected, 1) == TD_OK, "the late client did not connect: %s",
          td_client_error(late)->message);
    CHECK(td_client_fd(client) >= 0, "no descriptor after the reconnection (was %d)", old_fd);
    /* The renewed `*` subscription sees a session begun by another client. */
    td_client *other = connect_client(NULL);
    char session[130];
    begin_album_flip(other, 0, session, sizeof session);
    CHECK(run_loop(client, &log.begins, 1) == TD_OK, "the renewed subscription saw no begin");
    CHECK(run_loop(late, &late_log.completes, 1) == TD_OK, "the late client saw no complete");
    /* Everything the daemon wrote before this reply has been dispatched: one subscription. */
    CHECK(td_client_request_sync(late, "hello", NULL, WAIT_MS, &reply) == TD_OK, "hello: %s",
          td_client_error(late)->message);
    td_reply_destroy(reply);
    CHECK(late_log.begins == 1 && late_log.completes == 1, "the late client saw %d begins and %d completes",
          late_log.begins, late_log.completes);
    td_client_destroy(late);
    (void)replied;
    td_client_destroy(other);
    td_client_destroy(client);
}

/* A daemon impostor: accepts one client on `path` and writes `bytes` to it. */
static pid_t impostor(const char *path, const char *bytes, size_t length) {
    int listener = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un address;
    set_address(&address, path);
    unlink(path);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 1) != 0) {
        perror("impostor");
        exit(1);
    }
    pid_t pid = fork();
    if (pid == 0) {
        int peer = accept(listener, NULL, NULL);
        size_t written = 0;
        while (written < length) {
            ssize_t n = write(peer, bytes + written, length - written);
            if (n <= 0) break;
            written += (size_t)n;
        }
        char sink[256];
        while (read(peer, sink, sizeof sink) > 0) {}
        _exit(0);
    }
    close(listener);
    return pid;
}

static void expect_refused(const char *what, const char *bytes, size_t length, int expected, size_t max_line) {
    char path[400];
    snprintf(path, sizeof path, "%s/impostor.sock", directory);
    pid_t pid = impostor(path, bytes, length);
    td_client_options options;
    td_client_options_init(&options);
    options.socket_path = path;
    if (max_line) options.limits.max_line_bytes = max_line;
    td_client *client = td_client_new(&options);
    CHECK(td_client_connect(client) == TD_OK, "%s: connect to the impostor", what);
    int status = TD_OK;
    double deadline = now() + WAIT_MS / 1000.0;
    while (status == TD_OK && now() < deadline) {
        const td_event *event;
        status = td_client_wait_event(client, 200, &event);
        if (status == TD_ERR_TIMEOUT) status = TD_OK;
    }
    CHECK(status == expected, "%s gave %s, not %s (%s)", what, td_status_name(status), td_status_name(expected),
          td_client_error(client)->message);
    CHECK(td_client_fd(client) == -1, "%s: the connection stays open", what);
    td_client_destroy(client);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
}

static void test_hostile_daemon(void) {
    expect_refused("broken JSON", "{\"event\":\"frame\",\n", 18, TD_ERR_MALFORMED, 0);
    expect_refused("a NUL byte", "{\"event\":\"stop\0ping\"}\n", 23, TD_ERR_MALFORMED, 0);
    static const char delta[] = "{\"event\":\"frame\",\"session\":\"s1\",\"seq\":1,\"t\":0,\"progress\":0,\"layers\":[],\"key\":false}\n";
    expect_refused("a delta before any key frame", delta, sizeof delta - 1, TD_ERR_NO_KEY_FRAME, 0);
    char *long_line = malloc(5000);
    memset(long_line, ' ', 5000);
    long_line[0] = '{';
    expect_refused("an overlong line", long_line, 5000, TD_ERR_LIMIT, 1024);
    free(long_line);
    static const char reply[] = "{\"id\":77,\"ok\":true}\n";
    expect_refused("a reply to no request", reply, sizeof reply - 1, TD_ERR_MALFORMED, 0);
}

/* Hostile lines straight into the decoder. */
static void expect_line(td_decoder *decoder, const char *what, const char *line, int expected) {
    const td_event *event;
    int status = td_decoder_feed_line(decoder, line, strlen(line), &event);
    CHECK(status == expected, "%s gave %s, not %s (%s)", what, td_status_name(status), td_status_name(expected),
          td_decoder_error(decoder)->message);
    if (expected != TD_OK) CHECK(event == NULL && td_decoder_error(decoder)->message[0], "%s: no message", what);
}

static void test_decoder_hostile_lines(void) {
    td_limits limits;
    td_limits_init(&limits);
    limits.max_layers = 3;
    limits.max_line_bytes = 4096;
    td_decoder *decoder = td_decoder_new(&limits);
    const char *key = "{\"event\":\"frame\",\"session\":\"s1\",\"seq\":0,\"t\":0,\"progress\":0,\"layers\":["
                      "{\"id\":\"a\",\"frame\":[0,0,10,10],\"z\":0}],\"key\":true}";
    expect_line(decoder, "a key frame", key, TD_OK);
    expect_line(decoder, "broken JSON", "{\"event\":\"frame\",", TD_ERR_MALFORMED);
    expect_line(decoder, "not an object", "[1,2]", TD_ERR_MALFORMED);
    expect_line(decoder, "a reply", "{\"id\":1,\"ok\":true}", TD_ERR_MALFORMED);
    expect_line(decoder, "a string seq",
                "{\"event\":\"frame\",\"session\":\"s2\",\"seq\":\"0\",\"t\":0,\"progress\":0,\"layers\":[]}", TD_ERR_MALFORMED);
    expect_line(decoder, "a transform of 3 numbers",
                "{\"event\":\"frame\",\"session\":\"s2\",\"seq\":0,\"t\":0,\"progress\":0,\"layers\":[{\"id\":\"a\","
                "\"frame\":[0,0,1,1],\"z\":0,\"transform\":[1,2,3]}]}", TD_ERR_MALFORMED);
    expect_line(decoder, "a huge number",
                "{\"event\":\"frame\",\"session\":\"s2\",\"seq\":0,\"t\":1e999,\"progress\":0,\"layers\":[]}", TD_ERR_MALFORMED);
    expect_line(decoder, "a bad background",
                "{\"event\":\"frame\",\"session\":\"s2\",\"seq\":0,\"t\":0,\"progress\":0,\"layers\":[{\"id\":\"a\","
                "\"frame\":[0,0,1,1],\"z\":0,\"background\":\"red\"}]}", TD_ERR_MALFORMED);
    expect_line(decoder, "a layer without a frame",
                "{\"event\":\"frame\",\"session\":\"s2\",\"seq\":0,\"t\":0,\"progress\":0,\"layers\":[{\"id\":\"a\",\"z\":0}]}",
                TD_ERR_MALFORMED);
    expect_line(decoder, "too many layers",
                "{\"event\":\"frame\",\"session\":\"s2\",\"seq\":0,\"t\":0,\"progress\":0,\"layers\":["
                "{\"id\":\"a\",\"frame\":[0,0,1,1],\"z\":0},{\"id\":\"b\",\"frame\":[0,0,1,1],\"z\":0},"
                "{\"id\":\"c\",\"frame\":[0,0,1,1],\"z\":0},{\"id\":\"d\",\"frame\":[0,0,1,1],\"z\":0}]}", TD_ERR_LIMIT);
    char deep[1024] = "{\"event\":\"other\",\"x\":";
    for (int i = 0; i < 200; i++) strcat(deep, "[");
    expect_line(decoder, "deep nesting", deep, TD_ERR_LIMIT);
    char *overlong = malloc(5000);
    memset(overlong, ' ', 4999);
    overlong[4999] = '\0';
    expect_line(decoder, "an overlong line", overlong, TD_ERR_LIMIT);
    free(overlong);
    const td_event *event;
    CHECK(td_decoder_feed_line(decoder, "{\"event\":\"stopping\"}\0x", 22, &event) == TD_ERR_MALFORMED, "a NUL byte");
    expect_line(decoder, "an id with \\u0000",
                "{\"event\":\"frame\",\"session\":\"s\\u0000\",\"seq\":0,\"t\":0,\"progress\":0,\"layers\":[]}", TD_ERR_MALFORMED);
    expect_line(decoder, "invalid UTF-8", "{\"event\":\"frame\",\"session\":\"\xff\"}", TD_ERR_MALFORMED);
    /* Deltas: an unknown layer, a gap, the skip until a key frame. */
    expect_line(decoder, "a delta for an unknown layer",
                "{\"event\":\"frame\",\"session\":\"s1\",\"seq\":1,\"t\":0,\"progress\":0,\"layers\":[{\"id\":\"zz\",\"alpha\":0.5}],\"key\":false}",
                TD_ERR_NO_KEY_FRAME);
    expect_line(decoder, "a delta after its session was dropped",
                "{\"event\":\"frame\",\"session\":\"s1\",\"seq\":2,\"t\":0,\"progress\":0,\"layers\":[],\"key\":false}",
                TD_ERR_NO_KEY_FRAME);
    expect_line(decoder, "a key frame again", key, TD_OK);
    expect_line(decoder, "a delta",
                "{\"event\":\"frame\",\"session\":\"s1\",\"seq\":1,\"t\":0,\"progress\":0,\"layers\":[{\"id\":\"a\",\"alpha\":0.5,"
                "\"content\":{ \"k\" : [1, 2] }}],\"key\":false}", TD_OK);
    expect_line(decoder, "a gap",
                "{\"event\":\"frame\",\"session\":\"s1\",\"seq\":3,\"t\":0,\"progress\":0,\"layers\":[],\"key\":false}",
                TD_ERR_SEQ_GAP);
    expect_line(decoder, "a delta after the gap",
                "{\"event\":\"frame\",\"session\":\"s1\",\"seq\":4,\"t\":0,\"progress\":0,\"layers\":[],\"key\":false}", TD_SKIPPED);
    /* A frame decoded: defaults filled, content compact. */
    const char *full = "{\"event\":\"frame\",\"session\":\"s3\",\"seq\":7,\"t\":0.5,\"progress\":0.25,\"layers\":["
                       "{\"id\":\"a\",\"frame\":[1,2,3,4],\"z\":2,\"background\":\"#ff000080\",\"content\":{\"a\": [1, \"b c\"]}},"
                       "{\"frame\":[0,0,1,1],\"hidden\":true,\"alpha\":0.5,\"anchor\":[0,1],\"id\":\"b\\u00e9\",\"z\":1}]}";
    CHECK(td_decoder_feed_line(decoder, full, strlen(full), &event) == TD_OK, "%s", td_decoder_error(decoder)->message);
    if (event && event->type == TD_EVENT_FRAME) {
        const td_frame *frame = event->frame;
        CHECK(frame->seq == 7 && frame->t == 0.5 && frame->progress == 0.25 && frame->layer_count == 2, "frame header");
        const td_layer *a = frame->layers[0], *b = frame->layers[1];
        CHECK(strcmp(a->id, "a") == 0 && a->frame[3] == 4 && a->anchor[0] == 0.5 && a->alpha == 1 && !a->hidden,
              "layer a defaults");
        CHECK(a->transform[0] == 1 && a->transform[5] == 1 && a->transform[11] == 0 && a->transform[15] == 1, "identity");
        CHECK(a->has_background && a->background[0] == 255 && a->background[3] == 128, "background");
        CHECK(a->content && strcmp(a->content, "{\"a\":[1,\"b c\"]}") == 0, "content %s", a->content);
        CHECK(strcmp(b->id, "b\xc3\xa9") == 0 && b->hidden && b->alpha == 0.5 && b->anchor[1] == 1 && !b->content &&
                  !b->has_background, "layer b");
        CHECK(event->key == -1 && strcmp(event->name, "frame") == 0 && strcmp(event->session, "s3") == 0, "event");
    }
    td_decoder_destroy(decoder);
}

/* Appearance members: decoded from a key frame, applied from deltas (a member returning to its
 * default is written with the default), bad values refused like the other members. */
static void test_decoder_appearance(void) {
    td_decoder *decoder = td_decoder_new(NULL);
    const td_event *event;
    const char *key = "{\"event\":\"frame\",\"session\":\"s\",\"seq\":0,\"t\":0,\"progress\":0,\"layers\":["
                      "{\"id\":\"card\",\"frame\":[0,0,100,50],\"z\":0,\"background\":\"#ffffffff\",\"cornerRadius\":12.5,"
                      "\"clips\":true,\"border\":{\"width\":2,\"color\":\"#ff000080\"},"
                      "\"shadow\":{\"color\":\"#00000040\",\"blur\":16,\"offset\":[0,-4]}},"
                      "{\"id\":\"photo\",\"frame\":[0,0,200,200],\"z\":1,\"clipTo\":\"card\"}],\"key\":true}";
    CHECK(td_decoder_feed_line(decoder, key, strlen(key), &event) == TD_OK, "appearance key frame: %s",
          td_decoder_error(decoder)->message);
    if (event && event->type == TD_EVENT_FRAME && event->frame->layer_count == 2) {
        const td_layer *card = event->frame->layers[0], *photo = event->frame->layers[1];
        CHECK(card->size >= offsetof(td_layer, clip_to) + sizeof card->clip_to, "size %u", card->size);
        CHECK(card->corner_radius == 12.5 && card->clips == 1, "radius %g clips %d", card->corner_radius, card->clips);
        CHECK(card->border_width == 2 && card->border_color[0] == 255 && card->border_color[3] == 128, "border");
        CHECK(card->shadow_color[3] == 0x40 && card->shadow_blur == 16 && card->shadow_offset[0] == 0 &&
                  card->shadow_offset[1] == -4, "shadow");
        CHECK(card->clip_to == NULL, "card clipTo");
        CHECK(photo->clip_to && strcmp(photo->clip_to, "card") == 0, "photo clipTo");
        CHECK(photo->corner_radius == 0 && !photo->clips && photo->border_width == 0 && photo->shadow_color[3] == 0,
              "photo defaults");
    }
    const char *delta = "{\"event\":\"frame\",\"session\":\"s\",\"seq\":1,\"t\":0,\"progress\":0,\"layers\":["
                        "{\"id\":\"card\",\"cornerRadius\":0,\"clips\":false,\"border\":{\"width\":0,\"color\":\"#00000000\"},"
                        "\"shadow\":{\"color\":\"#00000000\",\"blur\":0,\"offset\":[0,0]}},"
                        "{\"id\":\"photo\",\"clipTo\":null,\"cornerRadius\":3}],\"key\":false}";
    CHECK(td_decoder_feed_line(decoder, delta, strlen(delta), &event) == TD_OK, "appearance delta: %s",
          td_decoder_error(decoder)->message);
    if (event && event->type == TD_EVENT_FRAME && event->frame->layer_count == 2) {
        const td_layer *card = event->frame->layers[0], *photo = event->frame->layers[1];
        CHECK(card->corner_radius == 0 && !card->clips && card->border_width == 0 && card->border_color[3] == 0 &&
                  card->shadow_color[3] == 0 && card->shadow_blur == 0, "card back to its defaults");
        CHECK(photo->clip_to == NULL && photo->corner_radius == 3, "photo after the delta");
    }
    const char *again = "{\"event\":\"frame\",\"session\":\"s\",\"seq\":2,\"t\":0,\"progress\":0,\"layers\":["
                        "{\"id\":\"photo\",\"clipTo\":\"card\"}],\"key\":false}";
    CHECK(td_decoder_feed_line(decoder, again, strlen(again), &event) == TD_OK && event &&
              event->frame->layers[1]->clip_to && strcmp(event->frame->layers[1]->clip_to, "card") == 0,
          "clipTo set by a delta: %s", td_decoder_error(decoder)->message);
    static const char *const bad[][2] = {
        {"a negative cornerRadius", "\"cornerRadius\":-1"},
        {"a cornerRadius that is a string", "\"cornerRadius\":\"4\""},
        {"an infinite cornerRadius", "\"cornerRadius\":1e999"},
        {"clips that is a number", "\"clips\":1"},
        {"a negative border width", "\"border\":{\"width\":-2,\"color\":\"#000000ff\"}"},
        {"a border without its color", "\"border\":{\"width\":2}"},
        {"a border colour that is not one", "\"border\":{\"width\":2,\"color\":\"red\"}"},
        {"a border that is a number", "\"border\":2"},
        {"a negative shadow blur", "\"shadow\":{\"color\":\"#000000ff\",\"blur\":-1,\"offset\":[0,0]}"},
        {"a shadow offset of one number", "\"shadow\":{\"color\":\"#000000ff\",\"blur\":1,\"offset\":[0]}"},
        {"a shadow without its offset", "\"shadow\":{\"color\":\"#000000ff\",\"blur\":1}"},
        {"a clipTo that is a number", "\"clipTo\":3"},
        {"a clipTo naming no layer", "\"clipTo\":\"nowhere\""},
        {"a layer clipped to itself", "\"clipTo\":\"a\""},
        {"a clipTo loop", "\"clipTo\":\"b\"},{\"id\":\"b\",\"frame\":[0,0,1,1],\"z\":0,\"clipTo\":\"a\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char line[512];
        snprintf(line, sizeof line,
                 "{\"event\":\"frame\",\"session\":\"s2\",\"seq\":0,\"t\":0,\"progress\":0,\"layers\":["
                 "{\"id\":\"a\",\"frame\":[0,0,1,1],\"z\":0,%s}],\"key\":true}", bad[i][1]);
        expect_line(decoder, bad[i][0], line, TD_ERR_MALFORMED);
    }
    const char *loop = "{\"event\":\"frame\",\"session\":\"s\",\"seq\":3,\"t\":0,\"progress\":0,\"layers\":["
                       "{\"id\":\"card\",\"clipTo\":\"photo\"}],\"key\":false}";
    expect_line(decoder, "a delta that closes a clipTo loop", loop, TD_ERR_MALFORMED);
    const char *after = "{\"event\":\"frame\",\"session\":\"s\",\"seq\":4,\"t\":0,\"progress\":0,\"layers\":[],\"key\":false}";
    expect_line(decoder, "a delta after the refused one", after, TD_ERR_NO_KEY_FRAME);
    td_decoder_destroy(decoder);
}

static void test_default_socket_path(void) {
    char path[512];
    setenv("TRANSITIOND_SOCKET", "/run/x.sock", 1);
    td_default_socket_path(path, sizeof path);
    CHECK(strcmp(path, "/run/x.sock") == 0, "explicit: %s", path);
    setenv("TRANSITIOND_SOCKET", "", 1);
    setenv("XDG_RUNTIME_DIR", "/run/user/7/", 1);
    td_default_socket_path(path, sizeof path);
    CHECK(strcmp(path, "/run/user/7/transitiond/transitiond.sock") == 0, "runtime: %s", path);
    unsetenv("XDG_RUNTIME_DIR");
    size_t length = td_default_socket_path(path, 4);
    char expected[128];
    snprintf(expected, sizeof expected, "/tmp/transitiond-%lu/transitiond.sock", (unsigned long)getuid());
    CHECK(length == strlen(expected), "the length %zu", length);
    td_default_socket_path(path, sizeof path);
    CHECK(strcmp(path, expected) == 0, "tmp: %s", path);
    unsetenv("TRANSITIOND_SOCKET");
    td_client *client = td_client_new(NULL);
    CHECK(strcmp(td_client_socket_path(client), expected) == 0, "the client's path %s", td_client_socket_path(client));
    td_client_destroy(client);
}

static void test_no_swift_library(void) {
    char command[600];
    snprintf(command, sizeof command, "ldd '%s'", library_path);
    FILE *pipe = popen(command, "r");
    char line[512];
    int lines = 0, swift = 0;
    while (pipe && fgets(line, sizeof line, pipe)) {
        lines++;
        if (strstr(line, "swift") || strstr(line, "Swift")) {
            swift++;
            fprintf(stderr, "ldd: %s", line);
        }
    }
    int status = pipe ? pclose(pipe) : -1;
    CHECK(status == 0 && lines > 0, "ldd %s failed", library_path);
    CHECK(swift == 0, "ldd names %d Swift libraries", swift);
}

/* A display-paced subscription: every frame shows a vblank of the display (within 0.1 ms,
 * exact arithmetic on the daemon's side), presented reports are taken once, a frame is pulled
 * at an instant, and the daemon's clock is the caller's CLOCK_MONOTONIC. */
static void test_display_pacing(void) {
    td_client *client = connect_client(NULL);
    td_reply *reply = NULL;
    uint64_t id;
    double before = td_monotonic_seconds(), daemon_now = 0;
    CHECK(td_client_clock(client, NULL, NULL, &id) == TD_OK, "clock");
    CHECK(td_client_wait_reply(client, id, WAIT_MS, &reply) == TD_OK, "clock reply");
    if (reply) td_reply_number(reply, "now", &daemon_now);
    td_reply_destroy(reply);
    CHECK(daemon_now >= before && daemon_now <= td_monotonic_seconds(), "clock now %f is not CLOCK_MONOTONIC", daemon_now);

    char *context = scene_context("album-flip-push.json");
    double duration = 1;
    td_begin_options options = {sizeof options, "album-flip", &duration, 0, NULL, NULL, NULL};
    char session[130] = "";
    double start = 0;
    reply = NULL;
    if (td_client_begin(client, context, &options, NULL, NULL, &id) == TD_OK)
        td_client_wait_reply(client, id, WAIT_MS, &reply);
    free(context);
    CHECK(reply != NULL, "begin: %s", td_client_error(client)->message);
    if (reply) {
        td_reply_string(reply, "session", session, sizeof session);
        td_reply_number(reply, "start", &start);
    }
    td_reply_destroy(reply);

    double period = 1.0 / 120, lead = 0.003;
    td_display display = {sizeof display, period, td_monotonic_seconds() + 0.0021, &lead};
    reply = NULL;
    double subscription = -1;
    if (td_client_subscribe_display(client, session, &display, TD_ENCODING_DEFAULT, NULL, NULL, &id) == TD_OK)
        td_client_wait_reply(client, id, WAIT_MS, &reply);
    CHECK(reply != NULL && td_reply_ok(reply), "subscribe with display: %s", td_client_error(client)->message);
    if (reply) td_reply_number(reply, "subscription", &subscription);
    td_reply_destroy(reply);

    int frames = 0, off = 0, complete = 0;
    uint64_t reported_seq = 0;
    int reported = 0;
    while (!complete) {
        const td_event *event;
        int status = td_client_wait_event(client, WAIT_MS, &event);
        CHECK(status == TD_OK, "waiting for display-paced frames: %s", td_client_error(client)->message);
        if (status != TD_OK) break;
        if (event->type == TD_EVENT_COMPLETE) complete = 1;
        if (event->type != TD_EVENT_FRAME || event->frame->progress >= 1) continue;
        double shown = start + event->frame->t;
        double periods = (shown - display.vblank) / period;
        if (fabs(periods - round(periods)) * period > 0.0001) off++;
        frames++;
        if (!reported) {
            reported = 1;
            reported_seq = event->frame->seq;
            CHECK(td_client_presented(client, (int64_t)subscription, session, reported_seq, shown, NULL, NULL, &id) ==
                      TD_OK,
                  "presented");
        }
    }
    CHECK(frames > 60 && off == 0, "%d of %d display-paced frames off their vblank", off, frames);
    reply = NULL;
    CHECK(td_client_wait_reply(client, id, WAIT_MS, &reply) == TD_OK, "the presented report was refused");
    td_reply_destroy(reply);
    reply = NULL;
    if (td_client_presented(client, (int64_t)subscription, session, reported_seq, start, NULL, NULL, &id) == TD_OK)
        td_client_wait_reply(client, id, WAIT_MS, &reply);
    CHECK(reply && td_reply_error_code(reply) && strcmp(td_reply_error_code(reply), "unknown_subscription") == 0,
          "a second report after the session ended: %s", reply ? td_reply_error_code(reply) : "no reply");
    td_reply_destroy(reply);

    /* Pull: a session of its own, the frame at start + 0.5. */
    context = scene_context("album-flip-push.json");
    duration = 10;
    reply = NULL;
    if (td_client_begin(client, context, &options, NULL, NULL, &id) == TD_OK)
        td_client_wait_reply(client, id, WAIT_MS, &reply);
    free(context);
    if (reply) {
        td_reply_string(reply, "session", session, sizeof session);
        td_reply_number(reply, "start", &start);
    }
    td_reply_destroy(reply);
    reply = NULL;
    if (td_client_pull_frame(client, session, start + 0.5, NULL, NULL, NULL, &id) == TD_OK)
        td_client_wait_reply(client, id, WAIT_MS, &reply);
    CHECK(reply && td_reply_ok(reply), "frame: %s", td_client_error(client)->message);
    const char *value = NULL;
    size_t length = 0;
    if (reply && td_reply_member(reply, "frame", &value, &length) == TD_OK) {
        td_decoder *decoder = td_decoder_new(NULL);
        const td_event *event = NULL;
        int status = td_decoder_feed_line(decoder, value, length, &event);
        CHECK(status == TD_OK && event && event->type == TD_EVENT_FRAME, "the pulled frame does not decode");
        if (status == TD_OK && event && event->frame) {
            CHECK(fabs(event->frame->t - 0.5) < 1e-6 && event->frame->seq == 0, "pulled frame t %f seq %llu",
                  event->frame->t, (unsigned long long)event->frame->seq);
            CHECK(event->frame->layer_count > 0, "the pulled frame has no layers");
        }
        td_decoder_destroy(decoder);
    } else {
        CHECK(0, "the frame reply has no frame");
    }
    td_reply_destroy(reply);
    td_client_destroy(client);
}

/* A key frame of `count` layers, each clipped to the one before it (a chain `count` long); the
 * first is clipped to `first_clip` (NULL for none). Returns a malloc'd line. */
static char *clip_chain_line(size_t count, const char *first_clip) {
    size_t capacity = 128 + count * 64, used = 0;
    char *line = malloc(capacity);
    if (!line) abort();
    used += (size_t)snprintf(line + used, capacity - used,
                             "{\"event\":\"frame\",\"session\":\"chain\",\"seq\":0,\"t\":0,\"progress\":0,\"layers\":[");
    for (size_t i = 0; i < count; i++) {
        used += (size_t)snprintf(line + used, capacity - used, "%s{\"id\":\"l%zu\",\"frame\":[0,0,1,1],\"z\":%zu",
                                 i ? "," : "", i, i);
        if (i) used += (size_t)snprintf(line + used, capacity - used, ",\"clipTo\":\"l%zu\"", i - 1);
        else if (first_clip) used += (size_t)snprintf(line + used, capacity - used, ",\"clipTo\":\"%s\"", first_clip);
        used += (size_t)snprintf(line + used, capacity - used, "}");
    }
    snprintf(line + used, capacity - used, "],\"key\":true}");
    return line;
}

/* A frame of 4,096 layers clipped in one chain: checked in one pass over an id table (a check
 * that walks each layer's chain and looks each id up in turn took minutes on 2,048), and a
 * loop or a missing layer at the chain's far end is still found. */
static void test_decoder_long_clip_chain(void) {
    td_decoder *decoder = td_decoder_new(NULL);
    const size_t count = TD_DEFAULT_MAX_LAYERS;
    char *chain = clip_chain_line(count, NULL);
    const td_event *event;
    CHECK(td_decoder_feed_line(decoder, chain, strlen(chain), &event) == TD_OK, "a 4,096-layer clip chain: %s",
          td_decoder_error(decoder)->message);
    if (event && event->type == TD_EVENT_FRAME) {
        CHECK(event->frame->layer_count == count, "%zu layers", event->frame->layer_count);
        const td_layer *last = event->frame->layers[count - 1];
        CHECK(last->clip_to && strcmp(last->clip_to, "l4094") == 0, "the last layer's clipTo");
    }
    free(chain);
    char last_id[16];
    snprintf(last_id, sizeof last_id, "l%zu", count - 1);
    char *loop = clip_chain_line(count, last_id);
    expect_line(decoder, "a 4,096-layer clip loop", loop, TD_ERR_MALFORMED);
    CHECK(strstr(td_decoder_error(decoder)->message, "forms a loop") != NULL, "%s", td_decoder_error(decoder)->message);
    free(loop);
    char *missing = clip_chain_line(count, "nowhere");
    expect_line(decoder, "a 4,096-layer chain ending nowhere", missing, TD_ERR_MALFORMED);
    CHECK(strstr(td_decoder_error(decoder)->message, "nowhere") != NULL, "%s", td_decoder_error(decoder)->message);
    free(missing);
    td_decoder_destroy(decoder);
}

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: client_test DAEMON PLUGIN_DIR SCENE_DIR LIBRARY.so\n");
        return 64;
    }
    daemon_path = argv[1];
    plugin_dir = argv[2];
    scene_dir = argv[3];
    library_path = argv[4];
    signal(SIGPIPE, SIG_IGN);
    snprintf(directory, sizeof directory, "/tmp/td-ctest-XXXXXX");
    if (!mkdtemp(directory)) {
        perror("mkdtemp");
        return 1;
    }
    snprintf(socket_path, sizeof socket_path, "%s/d.sock", directory);
    test_default_socket_path();
    test_decoder_hostile_lines();
    test_decoder_appearance();
    test_decoder_long_clip_chain();
    test_no_swift_library();
    start_daemon();
    test_hello();
    test_daemon_errors();
    test_full_and_delta_agree();
    test_one_240_fps_subscription_keeps_up();
    test_resync_after_gap();
    test_interactive_update_and_cancel();
    test_back_swipe_release();
    test_display_pacing();
    test_hostile_daemon();
    test_reconnect_after_restart();
    stop_daemon();
    for (int i = 0; i < FLIP_FRAMES; i++) free(reference[i]);
    char command[400];
    snprintf(command, sizeof command, "rm -rf '%s'", directory);
    if (failures == 0 && system(command) != 0) fprintf(stderr, "client_test: could not remove %s\n", directory);
    printf("client_test: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
