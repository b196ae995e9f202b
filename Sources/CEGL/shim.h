/* EGL and OpenGL ES 3 for the GLES renderer (CTransitionGLES). */
#include <EGL/egl.h>
#include <GLES3/gl3.h>
