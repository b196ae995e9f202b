#ifndef TRANSITIOND_PLUGIN_H
#define TRANSITIOND_PLUGIN_H
/* Placeholder: the plugin ABI header. */
#endif
