/* libpng for the GLES renderer's PNG writer (CTransitionGLES). */
#include <png.h>
