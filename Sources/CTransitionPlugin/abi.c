/*
 * Compile-time checks of the plugin ABI's layout.
 *
 * This file defines nothing: it pins the facts that the host and every plugin rely on, so
 * that an edit of transitiond_plugin.h that would silently break compiled plugins fails the
 * build instead.
 */
#include "transitiond_plugin.h"

_Static_assert(offsetof(transitiond_plugin, abi_version) == 0,
               "abi_version must stay the first field of transitiond_plugin");
_Static_assert(sizeof(((transitiond_plugin *)0)->abi_version) == 4,
               "abi_version must stay a 32-bit field");
_Static_assert(offsetof(transitiond_plugin, struct_size) == 4,
               "struct_size must directly follow abi_version");
_Static_assert(offsetof(transitiond_animator, struct_size) == 0,
               "struct_size must stay the first field of transitiond_animator");
_Static_assert(TRANSITIOND_PLUGIN_ABI_VERSION == 1,
               "changing the ABI version needs a review of every field's offset");
