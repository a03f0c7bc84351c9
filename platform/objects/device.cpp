// The virtual device: every CL_DEVICE_* answer combined from the wrapped backend devices
// (minimum of limits, intersection of features, union of type bits).
#include "platform/objects/platform.hpp"

#include "devices/backend_objects.hpp"

#include "platform/support/error.hpp"
#include "platform/support/info.hpp"
#include "platform/memory/memory_model.hpp"
#include "platform/support/version.hpp"

#include <algorithm>
#include <cstring>
#include <set>
#include <sstream>

namespace hetero {
namespace {

std::vector<std::string> words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// "OpenCL 3.0 ..." / "OpenCL C 1.2 ..." -> (3, 0)
std::pair<cl_uint, cl_uint> parseVersion(const std::string& s, size_t skipWords) {
    auto w = words(s);
    if (w.size() <= skipWords) return {1, 0};
    unsigned major = 1, minor = 0;
    std::sscanf(w[skipWords].c_str(), "%u.%u", &major, &minor);
    return {major, minor};
}

// Extensions Hetero can offer when every backend does: kernel-language features, and the API
// extensions Hetero implements itself. API extensions that need entry points Hetero lacks
// (GL sharing, command buffers, external memory, ...) are never passed on.
bool extensionPassesThrough(const std::string& name) {
    static const std::set<std::string> allowed = {
        "cl_khr_fp64", "cl_khr_fp16", "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics",
        "cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
        "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
        "cl_khr_byte_addressable_store", "cl_khr_3d_image_writes", "cl_khr_depth_images",
        "cl_khr_image2d_from_buffer", "cl_khr_srgb_image_writes", "cl_khr_expect_assume", "cl_khr_extended_bit_ops",
        "cl_khr_integer_dot_product", "cl_khr_subgroup_ballot", "cl_khr_subgroup_shuffle",
        "cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_extended_types",
        "cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_non_uniform_arithmetic",
        "cl_khr_subgroup_clustered_reduce", "cl_khr_kernel_clock", "cl_khr_spirv_no_integer_wrap_decoration",
        "cl_khr_extended_async_copies", "cl_khr_select_fprounding_mode", "cl_khr_device_uuid",
        "cl_khr_pci_bus_info", "cl_khr_work_group_uniform_arithmetic"};
    return allowed.count(name) > 0;
}

cl_device_type combinedType(const std::vector<Slot>& slots) {
    cl_device_type t = 0;
    for (const auto& s : slots) t |= s.type & ~CL_DEVICE_TYPE_DEFAULT;
    return t;
}

enum class Combine { MinUint, MaxUint, SumUint, MinUlong, MinSize, MaxSize, AndBool, AndBits, MinSizeArray, Primary };

struct Rule {
    cl_device_info param;
    Combine combine;
};

const Rule kRules[] = {
    {CL_DEVICE_MAX_COMPUTE_UNITS, Combine::SumUint},
    {CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, Combine::MinUint},
    {CL_DEVICE_MAX_WORK_ITEM_SIZES, Combine::MinSizeArray},
    {CL_DEVICE_MAX_WORK_GROUP_SIZE, Combine::MinSize},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, Combine::Primary},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, Combine::Primary},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, Combine::Primary},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, Combine::Primary},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, Combine::Primary},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, Combine::Primary},
    {CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, Combine::Primary},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, Combine::Primary},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, Combine::Primary},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, Combine::Primary},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, Combine::Primary},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, Combine::Primary},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, Combine::Primary},
    {CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, Combine::Primary},
    {CL_DEVICE_MAX_CLOCK_FREQUENCY, Combine::MaxUint},
    {CL_DEVICE_ADDRESS_BITS, Combine::MinUint},
    {CL_DEVICE_MAX_READ_IMAGE_ARGS, Combine::MinUint},
    {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, Combine::MinUint},
    {CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, Combine::MinUint},
    {CL_DEVICE_MAX_MEM_ALLOC_SIZE, Combine::MinUlong},
    {CL_DEVICE_IMAGE2D_MAX_WIDTH, Combine::MinSize},
    {CL_DEVICE_IMAGE2D_MAX_HEIGHT, Combine::MinSize},
    {CL_DEVICE_IMAGE3D_MAX_WIDTH, Combine::MinSize},
    {CL_DEVICE_IMAGE3D_MAX_HEIGHT, Combine::MinSize},
    {CL_DEVICE_IMAGE3D_MAX_DEPTH, Combine::MinSize},
    {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, Combine::MinSize},
    {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, Combine::MinSize},
    {CL_DEVICE_IMAGE_SUPPORT, Combine::AndBool},
    {CL_DEVICE_MAX_PARAMETER_SIZE, Combine::MinSize},
    {CL_DEVICE_MAX_SAMPLERS, Combine::MinUint},
    {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, Combine::MaxUint},
    {CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, Combine::MaxUint},
    {CL_DEVICE_MEM_BASE_ADDR_ALIGN, Combine::MaxUint},
    {CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, Combine::MaxUint},
    {CL_DEVICE_SINGLE_FP_CONFIG, Combine::AndBits},
    {CL_DEVICE_DOUBLE_FP_CONFIG, Combine::AndBits},
    {CL_DEVICE_HALF_FP_CONFIG, Combine::AndBits},
    {CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, Combine::MinUint},
    {CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, Combine::MinUint},
    {CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, Combine::MinUlong},
    {CL_DEVICE_GLOBAL_MEM_SIZE, Combine::MinUlong},
    {CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, Combine::MinUlong},
    {CL_DEVICE_MAX_CONSTANT_ARGS, Combine::MinUint},
    {CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, Combine::MinSize},
    {CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, Combine::MinSize},
    {CL_DEVICE_LOCAL_MEM_TYPE, Combine::MaxUint},  // CL_GLOBAL (2) if any backend emulates local memory
    {CL_DEVICE_LOCAL_MEM_SIZE, Combine::MinUlong},
    {CL_DEVICE_ERROR_CORRECTION_SUPPORT, Combine::AndBool},
    {CL_DEVICE_PROFILING_TIMER_RESOLUTION, Combine::MaxSize},
    {CL_DEVICE_ENDIAN_LITTLE, Combine::AndBool},
    {CL_DEVICE_AVAILABLE, Combine::AndBool},
    {CL_DEVICE_COMPILER_AVAILABLE, Combine::AndBool},
    {CL_DEVICE_LINKER_AVAILABLE, Combine::AndBool},
    {CL_DEVICE_PRINTF_BUFFER_SIZE, Combine::MinSize},
    {CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, Combine::Primary},
    {CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, Combine::AndBits},
    {CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, Combine::AndBits},
    {CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, Combine::AndBool},
    {CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, Combine::AndBool},
    {CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, Combine::AndBool},
};

template <class T, class F>
T fold(const std::vector<Slot>& slots, cl_device_info param, T init, F f) {
    T acc = init;
    bool first = true;
    for (const auto& s : slots) {
        T v{};
        if (!backend::deviceInfo(s.device, param, v)) v = T{};  // a backend without the query offers nothing
        acc = first ? v : f(acc, v);
        first = false;
    }
    return acc;
}

std::vector<cl_name_version> nameVersions(cl_device_id d, cl_device_info param) {
    auto b = backend::deviceInfoBytes(d, param);
    std::vector<cl_name_version> v(b.size() / sizeof(cl_name_version));
    if (!v.empty()) std::memcpy(v.data(), b.data(), v.size() * sizeof(cl_name_version));
    return v;
}

// Entries present (same name and version) on every slot, optionally filtered.
std::vector<cl_name_version> intersectNameVersions(const std::vector<Slot>& slots, cl_device_info param,
                                                   bool (*keep)(const std::string&)) {
    if (slots.empty()) return {};
    std::vector<cl_name_version> result;
    for (const auto& nv : nameVersions(slots[0].device, param)) {
        bool everywhere = std::all_of(slots.begin() + 1, slots.end(), [&](const Slot& s) {
            auto other = nameVersions(s.device, param);
            return std::any_of(other.begin(), other.end(), [&](const cl_name_version& o) {
                return o.version == nv.version && std::strncmp(o.name, nv.name, CL_NAME_VERSION_MAX_NAME_SIZE) == 0;
            });
        });
        if (everywhere && (!keep || keep(nv.name))) result.push_back(nv);
    }
    return result;
}

std::string extensions(const std::vector<Slot>& slots) {
    if (slots.empty()) return "";
    std::vector<std::vector<std::string>> lists;
    for (const auto& s : slots) lists.push_back(words(backend::deviceInfoString(s.device, CL_DEVICE_EXTENSIONS)));
    std::string out;
    for (const auto& e : lists[0]) {
        if (!extensionPassesThrough(e)) continue;
        bool everywhere = std::all_of(lists.begin() + 1, lists.end(), [&](const std::vector<std::string>& l) {
            return std::find(l.begin(), l.end(), e) != l.end();
        });
        if (everywhere) out += (out.empty() ? "" : " ") + e;
    }
    return out;
}

bool keepExtension(const std::string& name) { return extensionPassesThrough(name); }

// OpenCL C features whose API side Hetero does not offer.
bool keepFeature(const std::string& name) {
    return name != "__opencl_c_pipes" && name != "__opencl_c_device_enqueue" && name != "__opencl_c_subgroups" &&
           name != "__opencl_c_program_scope_global_variables";
}

}  // namespace

Device* Device::instance() {
    static Device* device = Backends::instance().slots().empty() ? nullptr : new Device;
    return device;
}

Device::Device() {
    versionMajor_ = 3, versionMinor_ = 0;
    for (const auto& s : slots()) {
        auto [major, minor] = parseVersion(backend::deviceInfoString(s.device, CL_DEVICE_VERSION), 1);
        if (major * 10 + minor < versionMajor_ * 10 + versionMinor_) versionMajor_ = major, versionMinor_ = minor;
    }
    DeviceLimits& l = limits_;
    auto get = [this](cl_device_info param, size_t size, void* value) { info(param, size, value, nullptr); };
    get(CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof l.maxWorkItemSizes, l.maxWorkItemSizes);
    get(CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof l.maxWorkGroupSize, &l.maxWorkGroupSize);
    get(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, sizeof l.nonUniformWorkGroups, &l.nonUniformWorkGroups);
    get(CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof l.maxMemAllocSize, &l.maxMemAllocSize);
    cl_uint alignBits = 8;
    get(CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof alignBits, &alignBits);
    l.baseAddressAlignment = std::max<size_t>(alignBits / 8, 1);
    get(CL_DEVICE_IMAGE_SUPPORT, sizeof l.imageSupport, &l.imageSupport);
    get(CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof(size_t), &l.image2dMax[0]);
    get(CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof(size_t), &l.image2dMax[1]);
    get(CL_DEVICE_IMAGE3D_MAX_WIDTH, sizeof(size_t), &l.image3dMax[0]);
    get(CL_DEVICE_IMAGE3D_MAX_HEIGHT, sizeof(size_t), &l.image3dMax[1]);
    get(CL_DEVICE_IMAGE3D_MAX_DEPTH, sizeof(size_t), &l.image3dMax[2]);
    get(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof l.imageMaxArraySize, &l.imageMaxArraySize);
    get(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof l.imageMaxBufferSize, &l.imageMaxBufferSize);
    get(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof l.imagePitchAlignment, &l.imagePitchAlignment);
    {
        size_t n = 0;
        info(CL_DEVICE_EXTENSIONS, 0, nullptr, &n);
        std::string extensions(n, '\0');
        info(CL_DEVICE_EXTENSIONS, n, extensions.data(), nullptr);
        extensions.resize(std::strlen(extensions.c_str()));
        l.image2dFromBuffer = (" " + extensions + " ").find(" cl_khr_image2d_from_buffer ") != std::string::npos;
    }
}

cl_device_type Device::type() const { return combinedType(slots()); }

cl_int Device::info(cl_device_info param, size_t size, void* value, size_t* sizeRet) {
    InfoWriter out(size, value, sizeRet);
    const auto& s = slots();
    const Slot& primary = s[Backends::instance().primarySlot()];

    for (const auto& rule : kRules) {
        if (rule.param != param) continue;
        switch (rule.combine) {
        case Combine::MinUint: return out.scalar(fold<cl_uint>(s, param, 0, [](auto a, auto b) { return std::min(a, b); }));
        case Combine::MaxUint: return out.scalar(fold<cl_uint>(s, param, 0, [](auto a, auto b) { return std::max(a, b); }));
        case Combine::SumUint: return out.scalar(fold<cl_uint>(s, param, 0, [](auto a, auto b) { return a + b; }));
        case Combine::MinUlong: return out.scalar(fold<cl_ulong>(s, param, 0, [](auto a, auto b) { return std::min(a, b); }));
        case Combine::MinSize: return out.scalar(fold<size_t>(s, param, 0, [](auto a, auto b) { return std::min(a, b); }));
        case Combine::MaxSize: return out.scalar(fold<size_t>(s, param, 0, [](auto a, auto b) { return std::max(a, b); }));
        case Combine::AndBool: return out.scalar(fold<cl_bool>(s, param, CL_TRUE, [](auto a, auto b) -> cl_bool { return a && b; }));
        case Combine::AndBits: return out.scalar(fold<cl_bitfield>(s, param, 0, [](auto a, auto b) { return a & b; }));
        case Combine::Primary: {
            auto b = backend::deviceInfoBytes(primary.device, param);
            return out.bytes(b.data(), b.size());
        }
        case Combine::MinSizeArray: {
            cl_uint dims = 3;
            for (const auto& slot : s) {
                cl_uint d = 3;
                backend::deviceInfo(slot.device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, d);
                dims = std::min(dims, d);
            }
            std::vector<size_t> sizes(dims, SIZE_MAX);
            for (const auto& slot : s) {
                auto b = backend::deviceInfoBytes(slot.device, param);
                for (cl_uint i = 0; i < dims && (i + 1) * sizeof(size_t) <= b.size(); ++i)
                    sizes[i] = std::min(sizes[i], reinterpret_cast<const size_t*>(b.data())[i]);
            }
            return out.array(sizes);
        }
        }
    }

    switch (param) {
    case CL_DEVICE_TYPE: return out.scalar<cl_device_type>(type());
    case CL_DEVICE_VENDOR_ID: return out.scalar<cl_uint>(0);
    case CL_DEVICE_EXECUTION_CAPABILITIES: return out.scalar<cl_device_exec_capabilities>(CL_EXEC_KERNEL);
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
        return out.scalar<cl_command_queue_properties>(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: return out.scalar<cl_command_queue_properties>(0);
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
    case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
    case CL_DEVICE_MAX_NUM_SUB_GROUPS:
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: return out.scalar<cl_uint>(0);
    case CL_DEVICE_SVM_CAPABILITIES: return out.scalar<cl_device_svm_capabilities>(0);
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES: return out.scalar<cl_device_device_enqueue_capabilities>(0);
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: return out.scalar<cl_device_affinity_domain>(0);
    case CL_DEVICE_PARTITION_PROPERTIES: return out.array(std::vector<cl_device_partition_property>{0});
    case CL_DEVICE_PARTITION_TYPE: return out.bytes(nullptr, 0);
    case CL_DEVICE_PARENT_DEVICE: return out.scalar<cl_device_id>(nullptr);
    case CL_DEVICE_REFERENCE_COUNT: return out.scalar<cl_uint>(1);
    case CL_DEVICE_PIPE_SUPPORT:
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: return out.scalar<cl_bool>(CL_FALSE);
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: return out.scalar<cl_bool>(CL_TRUE);
    case CL_DEVICE_PLATFORM: return out.scalar<cl_platform_id>(Platform::instance().handle());
    case CL_DEVICE_BUILT_IN_KERNELS:
    case CL_DEVICE_IL_VERSION: return out.string("");
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
    case CL_DEVICE_ILS_WITH_VERSION: return out.bytes(nullptr, 0);
    case CL_DEVICE_NAME: {
        std::string name = "Hetero:";
        for (size_t i = 0; i < s.size(); ++i) name += (i ? " + " : " ") + s[i].deviceName;
        return out.string(name);
    }
    case CL_DEVICE_VENDOR: return out.string("Hetero");
    // The default memory model and why, so that clinfo shows it (contexts may override it).
    case CL_DRIVER_VERSION: {
        const MemoryModelChoice& m = defaultMemoryModel();
        return out.string(std::string(HETERO_VERSION_STRING) + " (" + memoryModelName(m.model) + " memory, " + m.why + ")");
    }
    case CL_DEVICE_HOST_UNIFIED_MEMORY: return out.scalar<cl_bool>(defaultMemoryModel().model == MemoryModel::Unified);
    case CL_DEVICE_PROFILE: {
        bool full = std::all_of(s.begin(), s.end(), [](const Slot& x) { return backend::deviceInfoString(x.device, CL_DEVICE_PROFILE) == "FULL_PROFILE"; });
        return out.string(full ? "FULL_PROFILE" : "EMBEDDED_PROFILE");
    }
    case CL_DEVICE_VERSION: {
        std::string v = "OpenCL " + std::to_string(versionMajor_) + "." + std::to_string(versionMinor_) + " Hetero (";
        for (size_t i = 0; i < s.size(); ++i) v += (i ? " + " : "") + backend::deviceInfoString(s[i].device, CL_DEVICE_VERSION);
        return out.string(v + ")");
    }
    case CL_DEVICE_NUMERIC_VERSION: return out.scalar<cl_version>(CL_MAKE_VERSION(versionMajor_, versionMinor_, 0));
    case CL_DEVICE_OPENCL_C_VERSION: {
        std::pair<cl_uint, cl_uint> lowest{9, 9};
        for (const auto& x : s) lowest = std::min(lowest, parseVersion(backend::deviceInfoString(x.device, CL_DEVICE_OPENCL_C_VERSION), 2));
        return out.string("OpenCL C " + std::to_string(lowest.first) + "." + std::to_string(lowest.second) + " Hetero");
    }
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: return out.string("v0000-01-01-00");
    case CL_DEVICE_EXTENSIONS: return out.string(extensions(s));
    case CL_DEVICE_EXTENSIONS_WITH_VERSION: return out.array(intersectNameVersions(s, param, keepExtension));
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS: return out.array(intersectNameVersions(s, param, nullptr));
    case CL_DEVICE_OPENCL_C_FEATURES: return out.array(intersectNameVersions(s, param, keepFeature));
    default: return CL_INVALID_VALUE;
    }
}

}  // namespace hetero
