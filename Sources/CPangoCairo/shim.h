/* pango and cairo for the GLES renderer's content drawer (CTransitionGLES). */
#include <pango/pangocairo.h>
