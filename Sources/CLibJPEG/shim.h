/* libjpeg for the GLES renderer's pictures (CTransitionGLES). */
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
