/*
 * transitiond_plugin.h: the C ABI between transitiond and its animator plugins.
 *
 * A plugin is a shared library (lib<Name>.so) that exports exactly one symbol,
 * `transitiond_plugin_entry` (TRANSITIOND_PLUGIN_ENTRY_SYMBOL). The daemon dlopens the
 * library, calls the entry once, reads the ABI version from the first field of the returned
 * descriptor before anything else, and refuses a mismatch. Everything else crosses as bytes:
 * the transition context goes in as JSON, the timeline comes out as JSON (schemas in
 * docs/plugins.md; the Swift SDK returns the timeline in the host's binary form instead, which
 * starts with the bytes "TLB" and the form's version, so the host tells the two apart). No
 * other type, allocator or runtime is shared with the daemon.
 *
 * Rules (see docs/plugins.md for the full text):
 *   - Memory returned by a plugin is freed by the same plugin: the host copies the bytes that
 *     make_timeline returns, then hands them back to that animator's free_bytes exactly once.
 *   - The host calls make_timeline and free_bytes from one thread at a time (never
 *     concurrently), not necessarily always from the same thread.
 *   - The host never unloads a plugin (no dlclose): static data lives as long as the process.
 *   - A plugin never calls exit() or abort() for bad input, and never unwinds (C++
 *     exceptions, longjmp) across this boundary: it returns TRANSITIOND_STATUS_ERROR.
 *   - Strings in the descriptors are NUL-terminated UTF-8; the host copies them at load time.
 *
 * Growth: each descriptor starts with its own size (struct_size). New fields are only ever
 * appended; the host reads the fields it knows that lie within struct_size and treats missing
 * ones as absent. TRANSITIOND_PLUGIN_ABI_VERSION changes only when an existing field changes
 * type, offset or meaning.
 */
#ifndef TRANSITIOND_PLUGIN_H
#define TRANSITIOND_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The ABI version this header describes; a plugin stores it in transitiond_plugin.abi_version. */
#define TRANSITIOND_PLUGIN_ABI_VERSION 1

/** The name of the one symbol a plugin exports (see transitiond_plugin_entry below). */
#define TRANSITIOND_PLUGIN_ENTRY_SYMBOL "transitiond_plugin_entry"

/** Marks a definition as exported from the shared library even under -fvisibility=hidden. */
#define TRANSITIOND_PLUGIN_EXPORT __attribute__((visibility("default")))

/*
 * Operations, a bit mask in transitiond_animator.operations: the operations an animator
 * serves, named as in the context's "operation" field. Other bits are reserved (must be 0).
 */
/** "push": a navigation push. */
#define TRANSITIOND_OPERATION_PUSH 0x1u
/** "pop": a navigation pop. */
#define TRANSITIOND_OPERATION_POP 0x2u
/** "present": a modal presentation. */
#define TRANSITIOND_OPERATION_PRESENT 0x4u
/** "dismiss": a modal dismissal. */
#define TRANSITIOND_OPERATION_DISMISS 0x8u

/*
 * Status codes returned by make_timeline. Any other value is treated as an error.
 */
/** The timeline is in *out_bytes / *out_length: JSON, or the Swift SDK's binary form. */
#define TRANSITIOND_STATUS_OK 0
/**
 * The animator cannot serve this context (say, it needs a "selected" layer that is absent).
 * Not an error: the host falls back to the "default-slide" animator, as UIKit falls back to
 * its default transition when the delegate returns nil. Leave *out_bytes NULL.
 */
#define TRANSITIOND_STATUS_DECLINE 1
/**
 * The animator failed. *out_bytes / *out_length hold a UTF-8 message for the log and the
 * client (no NUL needed), or stay NULL when there is nothing to say.
 */
#define TRANSITIOND_STATUS_ERROR 2

/** One of the TRANSITIOND_STATUS_ values. */
typedef int32_t transitiond_status;

/**
 * Makes the timeline for one transition context.
 *
 * @param animator_data  the animator's own animator_data pointer, passed back unchanged.
 * The context and the timeline are JSON whose schemas (docs/protocol.md, docs/plugins.md) grow
 * by adding members, never through this header: a layer's appearance (cornerRadius, clips,
 * border, shadow, clipTo in a context; the properties cornerRadius, clips, border.width,
 * border.color, shadow.color, shadow.blur, shadow.offset and clipTo in a timeline) came that
 * way, with TRANSITIOND_PLUGIN_ABI_VERSION unchanged. A plugin ignores context members it does
 * not know.
 *
 * @param context_json   the context, UTF-8 JSON bytes; NOT NUL-terminated; never NULL. Valid
 *                       only during this call.
 * @param context_length the number of bytes at context_json.
 * @param out_bytes      set on OK (the timeline JSON) and optionally on ERROR (the message) to
 *                       memory the plugin allocated; the host sets it to NULL before the call.
 * @param out_length     the number of bytes at *out_bytes; the host sets it to 0 before the
 *                       call.
 * @return TRANSITIOND_STATUS_OK, TRANSITIOND_STATUS_DECLINE or TRANSITIOND_STATUS_ERROR.
 */
typedef transitiond_status (*transitiond_make_timeline_fn)(
    void *animator_data, const uint8_t *context_json, size_t context_length,
    uint8_t **out_bytes, size_t *out_length);

/**
 * Frees bytes that make_timeline of the same animator returned in *out_bytes.
 *
 * Called exactly once for every non-NULL *out_bytes, whatever the status, with the same
 * pointer and length, after the host has copied them.
 */
typedef void (*transitiond_free_bytes_fn)(void *animator_data, uint8_t *bytes, size_t length);

/** One animator: a named way of turning a context into a timeline. */
typedef struct transitiond_animator {
  /** sizeof(transitiond_animator) as the plugin was compiled; lets the struct grow. */
  uint32_t struct_size;
  /** The operations served: a non-zero mask of TRANSITIOND_OPERATION_ bits. */
  uint32_t operations;
  /**
   * The animator's name, unique across all loaded plugins (the first plugin loaded wins):
   * 1 to 64 characters from a-z, 0-9, '-', '.', '_'; for example "crossfade".
   */
  const char *name;
  /** The duration in seconds used when the client asks for none; finite and > 0. */
  double default_duration;
  /** Makes a timeline; never NULL. */
  transitiond_make_timeline_fn make_timeline;
  /** Frees what make_timeline returned; never NULL. */
  transitiond_free_bytes_fn free_bytes;
  /** Passed unchanged to make_timeline and free_bytes; may be NULL. */
  void *animator_data;
} transitiond_animator;

/** The plugin descriptor returned by the entry symbol. */
typedef struct transitiond_plugin {
  /**
   * TRANSITIOND_PLUGIN_ABI_VERSION as the plugin was compiled. Always the FIRST field, in
   * every ABI version: the host reads it before anything else and refuses a mismatch.
   */
  uint32_t abi_version;
  /** sizeof(transitiond_plugin) as the plugin was compiled; lets the struct grow. */
  uint32_t struct_size;
  /** The plugin's name for listings and logs, non-empty; for example "crossfade". */
  const char *name;
  /** The plugin's version, non-empty; for example "1.0.0". */
  const char *version;
  /** animator_count pointers to the plugin's animators. */
  const transitiond_animator *const *animators;
  /** The number of pointers at animators (at most 1024). */
  size_t animator_count;
} transitiond_plugin;

/** The type of the entry symbol, for dlsym users. */
typedef const transitiond_plugin *(*transitiond_plugin_entry_fn)(void);

/**
 * The one exported symbol of a plugin: returns its descriptor.
 *
 * Called once per load, before any other call; returns a pointer to static, constant data
 * that stays valid for the life of the process, or NULL if the plugin cannot run (the host
 * then refuses it). This declaration already marks it exported. Define it in exactly one file
 * of the plugin:
 *
 *   TRANSITIOND_PLUGIN_EXPORT const transitiond_plugin *transitiond_plugin_entry(void) {
 *     return &my_plugin;
 *   }
 */
TRANSITIOND_PLUGIN_EXPORT const transitiond_plugin *transitiond_plugin_entry(void);

#ifdef __cplusplus
}
#endif

#endif /* TRANSITIOND_PLUGIN_H */
