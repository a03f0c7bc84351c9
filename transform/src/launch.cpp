// Launch helpers: NDRange::numGroups, chunkLaunches (flattened range -> rectangular boxes of the
// work-group grid) and the abortable variant's extra arguments. Layout of the chunk variant's extra
// argument must match variants.cpp (see launch_layout.hpp).
#include "launch_layout.hpp"
#include "transform/transform.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace hetero::transform {

namespace {

// A local size of 0 (which the engine should have resolved) counts as 1 rather than dividing by 0.
uint64_t localOf(const NDRange& r, unsigned d) { return r.local[d] ? r.local[d] : 1; }

uint64_t groupsIn(const NDRange& r, unsigned d) {
    if (d >= r.dims) return 1;
    return (r.global[d] + localOf(r, d) - 1) / localOf(r, d);
}

struct Box {
    uint64_t origin[3] = {0, 0, 0};
    uint64_t count[3] = {1, 1, 1};
};

// Decomposes the flattened range [b, e) of the grid n[0..dims) (dims >= 1) into boxes. Each level
// splits a range into a partial head slab, whole slabs and a partial tail slab of the top dimension.
void decompose(const uint64_t* n, unsigned dims, uint64_t b, uint64_t e, std::vector<Box>& out) {
    if (b >= e) return;
    if (dims == 1) {
        Box box;
        box.origin[0] = b;
        box.count[0] = e - b;
        out.push_back(box);
        return;
    }
    const unsigned top = dims - 1;
    uint64_t slab = 1;
    for (unsigned d = 0; d < top; ++d) slab *= n[d];
    auto inSlab = [&](uint64_t s, uint64_t lo, uint64_t hi) {
        const size_t first = out.size();
        decompose(n, top, lo, hi, out);
        for (size_t i = first; i < out.size(); ++i) out[i].origin[top] = s;
    };
    uint64_t sb = b / slab;
    const uint64_t se = e / slab;
    if (sb == (e - 1) / slab) {  // head and tail in one slab
        inSlab(sb, b - sb * slab, e - sb * slab);
        return;
    }
    if (b % slab != 0) {
        inSlab(sb, b % slab, slab);
        ++sb;
    }
    if (se > sb) {
        Box box;
        for (unsigned d = 0; d < top; ++d) box.count[d] = n[d];
        box.origin[top] = sb;
        box.count[top] = se - sb;
        out.push_back(box);
    }
    if (e % slab != 0) inSlab(se, 0, e % slab);
}

ExtraArg bytesOf(const void* p, size_t size) {
    ExtraArg a;
    a.size = size;
    a.value.resize(size);
    std::memcpy(a.value.data(), p, size);
    return a;
}

}  // namespace

uint64_t NDRange::numGroups() const {
    uint64_t total = 1;
    for (unsigned d = 0; d < dims && d < 3; ++d) total *= groupsIn(*this, d);
    return total;
}

bool groupSplitAllowed(const KernelAnalysis& kernel, const NDRange& range) {
    return kernel.splittable && !kernel.usesBarrier && !kernel.usesLocalMemory && !kernel.usesLocalAtomics &&
           range.dims >= 1 && localOf(range, 0) > 1 && range.global[0] % localOf(range, 0) == 0;
}

unsigned groupSplitFor(const NDRange& range, uint64_t groups, unsigned computeUnits) {
    if (groups == 0 || groups >= computeUnits) return 1;
    const uint64_t want = (computeUnits + groups - 1) / groups, local = localOf(range, 0);
    for (uint64_t k = std::min<uint64_t>(want, local); k > 1; --k)
        if (local % k == 0) return static_cast<unsigned>(k);
    return 1;
}

std::vector<SubLaunch> chunkLaunches(const NDRange& range, uint64_t begin, uint64_t end, unsigned split) {
    if (split == 0 || localOf(range, 0) % split != 0) split = 1;
    std::vector<SubLaunch> launches;
    const uint64_t total = range.numGroups();
    end = std::min(end, total);
    if (begin >= end) return launches;
    uint64_t n[3];
    for (unsigned d = 0; d < 3; ++d) n[d] = groupsIn(range, d);
    std::vector<Box> boxes;
    decompose(n, std::max(1u, std::min(range.dims, 3u)), begin, end, boxes);
    for (const Box& box : boxes) {
        SubLaunch s;
        s.dims = range.dims;
        uint64_t info[detail::kChunkInfoWords] = {};
        for (unsigned d = 0; d < 3; ++d) {
            const bool used = d < range.dims;
            const uint64_t local = localOf(range, d);
            s.local[d] = used ? local : 1;
            s.offset[d] = used ? range.offset[d] + box.origin[d] * local : 0;
            // The box holding a dimension's last (possibly partial) group ends where the launch ends.
            const uint64_t startItem = box.origin[d] * local;
            s.global[d] = used ? std::min<uint64_t>(box.count[d] * local, range.global[d] - startItem) : 1;
            info[detail::kGroupOrigin + d] = used ? box.origin[d] : 0;
            info[detail::kNumGroups + d] = used ? n[d] : 1;
            info[detail::kGlobalSize + d] = used ? range.global[d] : 1;
            info[detail::kGlobalOffset + d] = used ? range.offset[d] : 0;
        }
        // Whole groups only (groupSplitAllowed), so the smaller ones tile each group exactly.
        s.local[0] /= split;
        info[detail::kGroupSplit] = split;
        s.extraArgs.push_back(bytesOf(info, sizeof info));
        launches.push_back(std::move(s));
    }
    return launches;
}

std::vector<uint64_t> partBounds(const NDRange& range, const std::vector<double>& weights, bool aligned) {
    const uint64_t groups = range.numGroups();
    double total = 0;
    for (double w : weights) total += w;
    // The coarsest whole unit of rows (3-D: planes) that is at most 1/16 of the smallest part: the
    // parts are then within half a unit (3 %) of their weights. A part under 1/8 of the largest (a
    // CPU's beside GPUs) does not make the unit finer: it is rounded to whole units like the others,
    // to none if it is under half of one.
    uint64_t unit = 1;
    if (aligned && range.dims >= 2 && total > 0 && !weights.empty()) {
        const double largest = *std::max_element(weights.begin(), weights.end());
        double smallestWeight = largest;
        for (double w : weights)
            if (w >= largest / 8) smallestWeight = std::min(smallestWeight, w);
        const double smallest = double(groups) * smallestWeight / total;
        const uint64_t row = groupsIn(range, 0), plane = row * groupsIn(range, 1);
        if (range.dims >= 3 && 16.0 * double(plane) <= smallest) unit = plane;
        else if (16.0 * double(row) <= smallest) unit = row;
    }
    std::vector<uint64_t> bounds{0};
    double sum = 0;
    for (size_t i = 0; i + 1 < weights.size(); ++i) {
        sum += weights[i];
        const double at = total > 0 ? double(groups) * sum / total : 0;
        auto b = static_cast<uint64_t>(unit == 1 ? std::floor(at) : std::round(at / double(unit)) * double(unit));
        bounds.push_back(std::clamp(b, bounds.back(), groups));
    }
    bounds.push_back(groups);
    return bounds;
}

std::vector<ExtraArg> abortExtraArgs(const NDRange& range, uint32_t launchId) {
    (void)range;
    return {bytesOf(&launchId, sizeof launchId)};
}

}  // namespace hetero::transform
