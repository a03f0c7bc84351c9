#include "corpus_inputs.hpp"

#include <cstring>
#include <random>
#include <stdexcept>
#include <string>

namespace corpus {
namespace {

template <typename Gen>
void fillScalars(const ArgSpec& arg, unsigned char* out, size_t n, Gen gen)
{
    for (size_t i = 0; i < n; i++) {
        double v = gen(i);
        unsigned char* at = out + i * arg.scalarSize;
        if (arg.isFloat && arg.scalarSize == 4) { float f = static_cast<float>(v); std::memcpy(at, &f, 4); }
        else if (arg.isFloat) { std::memcpy(at, &v, 8); }
        else if (arg.scalarSize == 1) { int8_t x = static_cast<int8_t>(static_cast<int64_t>(v)); std::memcpy(at, &x, 1); }
        else if (arg.scalarSize == 2) { int16_t x = static_cast<int16_t>(static_cast<int64_t>(v)); std::memcpy(at, &x, 2); }
        else if (arg.scalarSize == 4) { int32_t x = static_cast<int32_t>(static_cast<int64_t>(v)); std::memcpy(at, &x, 4); }
        else { int64_t x = static_cast<int64_t>(v); std::memcpy(at, &x, 8); }
    }
}

}  // namespace

std::vector<std::vector<unsigned char>> initialBuffers(const KernelSpec& spec, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::vector<std::vector<unsigned char>> buffers(spec.args.size());
    for (size_t i = 0; i < spec.args.size(); i++) {
        if (spec.args[i].kind != ArgKind::Global && spec.args[i].kind != ArgKind::Constant) continue;
        const ArgSpec& arg = spec.args[i];
        std::vector<unsigned char>& data = buffers[i];
        data.assign(arg.bufferBytes(), 0);
        size_t n = arg.count * arg.width;
        const std::string& init = arg.init;
        if (init == "zero") {
        } else if (init == "iota") {
            fillScalars(arg, data.data(), n, [](size_t k) { return static_cast<double>(k); });
        } else if (init.rfind("const:", 0) == 0) {
            double v = std::stod(init.substr(6));
            fillScalars(arg, data.data(), n, [v](size_t) { return v; });
        } else if (init.rfind("randint:", 0) == 0) {
            size_t colon = init.find(':', 8);
            int64_t lo = std::stoll(init.substr(8, colon - 8)), hi = std::stoll(init.substr(colon + 1));
            fillScalars(arg, data.data(), n, [&](size_t) { return static_cast<double>(lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1))); });
        } else if (init == "rand") {
            if (arg.isFloat)  // multiples of 2^-12 in [-1, 1): exact in float and double
                fillScalars(arg, data.data(), n, [&](size_t) { return (static_cast<double>(rng() % 8192) - 4096.0) / 4096.0; });
            else if (arg.isSigned)
                fillScalars(arg, data.data(), n, [&](size_t) { return static_cast<double>(static_cast<int64_t>(rng() % 201) - 100); });
            else
                fillScalars(arg, data.data(), n, [&](size_t) { return static_cast<double>(rng() % 201); });
        } else {
            throw std::runtime_error("unknown init " + init);
        }
    }
    return buffers;
}

}  // namespace corpus
