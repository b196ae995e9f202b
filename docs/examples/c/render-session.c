/*
 * render-session: a complete transitiond renderer in C.
 *
 * Subscribes to a session on the daemon's socket, draws each frame with the native GLES
 * renderer into an offscreen EGL context (no window, no GPU needed: Mesa's llvmpipe) and
 * writes it as OUT_DIR/frame-00000.png, frame-00001.png, ... until the session completes.
 *
 *   render-session [--socket PATH] [--fps N] [--clock virtual|wall|display] [--scale S]
 *                  [--images DIR] [--background RRGGBB] [--no-content] SESSION OUT_DIR
 *
 * The virtual clock (the default) gets every frame of the session's timeline from t = 0, as fast
 * as they are drawn; the stage behind the layers is --background (default 000000, black, as
 * `transitionctl render`'s). OUT_DIR is made when missing.
 *
 * --clock display paces the frames by a display of --fps Hz whose vblanks start now
 * (docs/protocol.md, "Display pacing"): each frame is evaluated for the vblank it is shown at,
 * and once written it is reported `presented` at the first vblank after it was done, as a
 * display shows a finished frame, so that the daemon raises the lead when drawing is slow.
 *
 * Build (with `make install-clib install-gles`):
 *   cc -std=c11 render-session.c $(pkg-config --cflags --libs transitiond-gles) -o render-session
 * Exit: 0 when the session finished, 3 when it was cancelled, 1 on an error, 64 on bad usage.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <transitiond_client.h>
#include <transitiond_gles.h>

static int usage(const char *problem) {
    fprintf(stderr, "render-session: %s\n", problem);
    fprintf(stderr, "usage: render-session [--socket PATH] [--fps N] [--clock virtual|wall|display] [--scale S]\n"
                    "                      [--images DIR] [--background RRGGBB] [--no-content] SESSION OUT_DIR\n");
    return 64;
}

static int fail(const char *what, const char *message) {
    fprintf(stderr, "render-session: %s: %s\n", what, message);
    return 1;
}

int main(int argc, char **argv) {
    const char *socket_path = NULL, *images = NULL, *session = NULL, *out = NULL;
    double fps = 30, scale = 1;
    unsigned long background = 0x000000;
    td_clock clock = TD_CLOCK_VIRTUAL;
    int content = 1, display_paced = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--no-content") == 0) {
            content = 0;
        } else if (strncmp(arg, "--", 2) == 0) {
            if (!value) return usage("an option needs a value");
            i++;
            char *end = NULL;
            if (strcmp(arg, "--socket") == 0) socket_path = value;
            else if (strcmp(arg, "--images") == 0) images = value;
            else if (strcmp(arg, "--fps") == 0) {
                fps = strtod(value, &end);
                if (*end || !(fps >= 1 && fps <= 240)) return usage("--fps must be in [1, 240]");
            } else if (strcmp(arg, "--scale") == 0) {
                scale = strtod(value, &end);
                if (*end || !(scale > 0 && scale <= 4)) return usage("--scale must be in (0, 4]");
            } else if (strcmp(arg, "--background") == 0) {
                background = strtoul(value, &end, 16);
                if (*end || strlen(value) != 6) return usage("--background must be RRGGBB");
            } else if (strcmp(arg, "--clock") == 0) {
                if (strcmp(value, "virtual") == 0) clock = TD_CLOCK_VIRTUAL;
                else if (strcmp(value, "wall") == 0) clock = TD_CLOCK_WALL;
                else if (strcmp(value, "display") == 0) display_paced = 1;
                else return usage("--clock must be virtual, wall or display");
            } else {
                return usage("unknown option");
            }
        } else if (!session) {
            session = arg;
        } else if (!out) {
            out = arg;
        } else {
            return usage("too many arguments");
        }
    }
    if (!session || !out) return usage("SESSION and OUT_DIR are needed");
    if (mkdir(out, 0777) != 0 && errno != EEXIST) return fail(out, strerror(errno));

    td_client_options options;
    td_client_options_init(&options);
    options.socket_path = socket_path;
    td_client *client = td_client_new(&options);
    if (!client) return fail("client", "out of memory");
    if (td_client_connect(client) != TD_OK) {
        int status = fail("connect", td_client_error(client)->message);
        td_client_destroy(client);
        return status;
    }

    /* The reply comes first, then the session's begin event, its frames and its complete. */
    uint64_t id = 0;
    td_reply *reply = NULL;
    /* A display-paced subscription: the daemon's clock is CLOCK_MONOTONIC on this machine. */
    td_display display = {sizeof display, 1 / fps, td_monotonic_seconds(), NULL};
    int subscribed = display_paced
                         ? td_client_subscribe_display(client, session, &display, TD_ENCODING_DELTA, NULL, NULL, &id)
                         : td_client_subscribe(client, session, fps, clock, TD_ENCODING_DELTA, 0, NULL, NULL, &id);
    if (subscribed != TD_OK || td_client_wait_reply(client, id, 5000, &reply) != TD_OK) {
        int status = fail("subscribe", td_client_error(client)->message);
        td_reply_destroy(reply);
        td_client_destroy(client);
        return status;
    }
    if (!td_reply_ok(reply)) {
        fprintf(stderr, "render-session: subscribe: %s: %s\n", td_reply_error_code(reply),
                td_reply_error_message(reply));
        td_reply_destroy(reply);
        td_client_destroy(client);
        return 1;
    }
    double subscription = -1, start = 0;
    td_reply_number(reply, "subscription", &subscription);
    td_reply_destroy(reply);

    td_gles_offscreen *offscreen = NULL;
    td_gles_renderer *renderer = NULL;
    td_gles_content_drawer *drawer = NULL;
    uint8_t *pixels = NULL;
    int width = 0, height = 0, frames = 0, status = 1;
    char error[256] = "";
    for (;;) {
        const td_event *event = NULL;
        if (td_client_wait_event(client, 30000, &event) != TD_OK) {
            fail("waiting for frames", td_client_error(client)->message);
            break;
        }
        if (event->type == TD_EVENT_BEGIN) start = event->start;
        if (event->type == TD_EVENT_BEGIN && !offscreen) {
            width = (int)(event->container[0] * scale + 0.5);
            height = (int)(event->container[1] * scale + 0.5);
            if (width < 1) width = 1;
            if (height < 1) height = 1;
            offscreen = td_gles_offscreen_new(width, height, error, sizeof error);
            if (!offscreen) { fail("EGL", error); break; }
            renderer = td_gles_renderer_new(error, sizeof error);
            if (!renderer) { fail("renderer", error); break; }
            if (content) {
                drawer = td_gles_content_drawer_new(images);
                td_gles_renderer_set_content(renderer, td_gles_content_drawer_texture, drawer);
            }
            pixels = malloc((size_t)width * (size_t)height * 4);
            if (!pixels) { fail("pixels", strerror(ENOMEM)); break; }
        } else if (event->type == TD_EVENT_FRAME && offscreen) {
            td_gles_offscreen_clear(offscreen, (uint32_t)background);
            if (td_gles_renderer_draw(renderer, event->frame, width, height, scale) != 0) {
                fail("draw", "the renderer refused the frame");
                break;
            }
            if (td_gles_offscreen_read(offscreen, pixels) != 0) { fail("read", "glReadPixels failed"); break; }
            char path[4096];
            snprintf(path, sizeof path, "%s/frame-%05d.png", out, frames);
            if (td_gles_write_png(path, pixels, width, height) != 0) { fail(path, strerror(errno)); break; }
            frames++;
            if (display_paced && event->frame->progress < 1) {
                /* Shown at the first vblank after it was done (its own, when it was in time). */
                double done = td_monotonic_seconds(), shown = start + event->frame->t;
                while (shown < done) shown += display.period;
                td_client_presented(client, (int64_t)subscription, event->frame->session, event->frame->seq, shown,
                                    NULL, NULL, NULL);
            }
        } else if (event->type == TD_EVENT_COMPLETE) {
            status = event->finished ? 0 : 3;
            break;
        } else if (event->type == TD_EVENT_STOPPING || event->type == TD_EVENT_DISCONNECTED) {
            fail("daemon", "it stopped before the session completed");
            break;
        }
    }
    if (status == 0) fprintf(stderr, "render-session: %d frames of %s written to %s\n", frames, session, out);
    free(pixels);
    td_gles_content_drawer_destroy(drawer);
    td_gles_renderer_destroy(renderer);
    td_gles_offscreen_destroy(offscreen);
    td_client_destroy(client);
    return status;
}
