// The kernel's V4L2 interface (linux/videodev2.h) for dockd-vision's capture: the structs as the
// kernel lays them out, and the VIDIOC_* request numbers, which are function-like macros Swift
// cannot import, as constants.
#include <linux/videodev2.h>
#include <sys/mman.h>

static const unsigned long dv_VIDIOC_QUERYCAP = VIDIOC_QUERYCAP;
static const unsigned long dv_VIDIOC_ENUM_FMT = VIDIOC_ENUM_FMT;
static const unsigned long dv_VIDIOC_ENUM_FRAMESIZES = VIDIOC_ENUM_FRAMESIZES;
static const unsigned long dv_VIDIOC_G_FMT = VIDIOC_G_FMT;
static const unsigned long dv_VIDIOC_S_FMT = VIDIOC_S_FMT;
static const unsigned long dv_VIDIOC_S_PARM = VIDIOC_S_PARM;
static const unsigned long dv_VIDIOC_REQBUFS = VIDIOC_REQBUFS;
static const unsigned long dv_VIDIOC_QUERYBUF = VIDIOC_QUERYBUF;
static const unsigned long dv_VIDIOC_QBUF = VIDIOC_QBUF;
static const unsigned long dv_VIDIOC_DQBUF = VIDIOC_DQBUF;
static const unsigned long dv_VIDIOC_STREAMON = VIDIOC_STREAMON;
static const unsigned long dv_VIDIOC_STREAMOFF = VIDIOC_STREAMOFF;
