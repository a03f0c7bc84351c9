"""Lists the OpenCL platforms and devices the ICD loader shows, through ctypes.

Run as a script (python3 probe.py) in the environment to inspect, because the loader reads
OCL_ICD_VENDORS and friends only once per process. Prints one JSON object:
  {"platforms": [{"name", "vendor", "version", "devices": [{"name", "type", "version",
   "driver", "compute_units"}]}], "error": null or text}
"""

import ctypes
import json
import sys

CL_PLATFORM_VERSION = 0x0901
CL_PLATFORM_NAME = 0x0902
CL_PLATFORM_VENDOR = 0x0903
CL_DEVICE_TYPE = 0x1000
CL_DEVICE_MAX_COMPUTE_UNITS = 0x1002
CL_DEVICE_NAME = 0x102B
CL_DRIVER_VERSION = 0x102D
CL_DEVICE_VERSION = 0x102F
CL_DEVICE_TYPE_ALL = 0xFFFFFFFF

TYPE_BITS = ((1 << 0, "default"), (1 << 1, "cpu"), (1 << 2, "gpu"), (1 << 3, "accelerator"),
             (1 << 4, "custom"))


def _load():
    for name in ("libOpenCL.so.1", "libOpenCL.so"):
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    raise OSError("no OpenCL ICD loader (libOpenCL.so.1) found")


def _info_string(function, handle, what):
    size = ctypes.c_size_t(0)
    if function(handle, ctypes.c_uint(what), ctypes.c_size_t(0), None, ctypes.byref(size)) != 0:
        return ""
    buffer = ctypes.create_string_buffer(size.value + 1)
    if function(handle, ctypes.c_uint(what), size, buffer, None) != 0:
        return ""
    return buffer.value.decode("utf-8", "replace").strip()


def _info_scalar(function, handle, what, ctype):
    value = ctype(0)
    if function(handle, ctypes.c_uint(what), ctypes.c_size_t(ctypes.sizeof(value)),
                ctypes.byref(value), None) != 0:
        return None
    return value.value


def type_names(bits):
    return [name for bit, name in TYPE_BITS if bits & bit]


def probe():
    cl = _load()
    cl.clGetPlatformIDs.argtypes = [ctypes.c_uint, ctypes.POINTER(ctypes.c_void_p),
                                    ctypes.POINTER(ctypes.c_uint)]
    cl.clGetDeviceIDs.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint,
                                  ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_uint)]
    info_args = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_size_t, ctypes.c_void_p,
                 ctypes.POINTER(ctypes.c_size_t)]
    cl.clGetPlatformInfo.argtypes = info_args
    cl.clGetDeviceInfo.argtypes = info_args

    count = ctypes.c_uint(0)
    status = cl.clGetPlatformIDs(0, None, ctypes.byref(count))
    if status != 0 or count.value == 0:
        return []  # ocl-icd answers CL_PLATFORM_NOT_FOUND_KHR (-1001) when there is none
    ids = (ctypes.c_void_p * count.value)()
    cl.clGetPlatformIDs(count.value, ids, None)
    platforms = []
    for platform in ids:
        entry = {
            "name": _info_string(cl.clGetPlatformInfo, platform, CL_PLATFORM_NAME),
            "vendor": _info_string(cl.clGetPlatformInfo, platform, CL_PLATFORM_VENDOR),
            "version": _info_string(cl.clGetPlatformInfo, platform, CL_PLATFORM_VERSION),
            "devices": [],
        }
        device_count = ctypes.c_uint(0)
        if cl.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, None, ctypes.byref(device_count)) == 0 \
                and device_count.value:
            devices = (ctypes.c_void_p * device_count.value)()
            cl.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, device_count.value, devices, None)
            for device in devices:
                bits = _info_scalar(cl.clGetDeviceInfo, device, CL_DEVICE_TYPE, ctypes.c_uint64) or 0
                entry["devices"].append({
                    "name": _info_string(cl.clGetDeviceInfo, device, CL_DEVICE_NAME),
                    "type": type_names(bits),
                    "version": _info_string(cl.clGetDeviceInfo, device, CL_DEVICE_VERSION),
                    "driver": _info_string(cl.clGetDeviceInfo, device, CL_DRIVER_VERSION),
                    "compute_units": _info_scalar(cl.clGetDeviceInfo, device,
                                                  CL_DEVICE_MAX_COMPUTE_UNITS, ctypes.c_uint),
                })
        platforms.append(entry)
    return platforms


def main():
    try:
        result = {"platforms": probe(), "error": None}
    except Exception as error:  # report, never crash: the caller marks the configuration n/a
        result = {"platforms": [], "error": "%s: %s" % (type(error).__name__, error)}
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
