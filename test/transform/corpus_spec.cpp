#include "corpus_spec.hpp"

#include <algorithm>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace corpus {
namespace {

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read " + path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> split(const std::string& text, char sep)
{
    std::vector<std::string> parts;
    std::string part;
    std::istringstream in(text);
    while (std::getline(in, part, sep))
        parts.push_back(part);
    return parts;
}

std::vector<size_t> parseSizes(const std::string& list)
{
    std::vector<size_t> values;
    for (const std::string& v : split(list, ','))
        values.push_back(std::stoull(v));
    return values;
}

void replaceAll(std::string& text, const std::string& from, const std::string& to)
{
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

struct ScalarType {
    size_t size;
    bool isFloat;
    bool isSigned;
};

const std::map<std::string, ScalarType>& scalarTypes()
{
    static const std::map<std::string, ScalarType> types = {
        {"char", {1, false, true}},   {"uchar", {1, false, false}}, {"short", {2, false, true}},
        {"ushort", {2, false, false}}, {"int", {4, false, true}},   {"uint", {4, false, false}},
        {"long", {8, false, true}},   {"ulong", {8, false, false}}, {"float", {4, true, true}},
        {"double", {8, true, true}},
    };
    return types;
}

// "float4" -> ("float", 4); "int" -> ("int", 1).
std::pair<std::string, unsigned> splitVectorType(const std::string& type)
{
    size_t digits = type.find_first_of("0123456789");
    if (digits == std::string::npos)
        return {type, 1};
    return {type.substr(0, digits), static_cast<unsigned>(std::stoul(type.substr(digits)))};
}

template <typename T>
void appendValue(std::vector<unsigned char>& bytes, T value)
{
    size_t align = sizeof(T);
    while (bytes.size() % align)
        bytes.push_back(0);
    unsigned char raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T));
    bytes.insert(bytes.end(), raw, raw + sizeof(T));
}

void appendTyped(std::vector<unsigned char>& bytes, const std::string& type, const std::string& text)
{
    if (type == "float") appendValue<float>(bytes, std::stof(text));
    else if (type == "double") appendValue<double>(bytes, std::stod(text));
    else if (type == "char") appendValue<int8_t>(bytes, static_cast<int8_t>(std::stol(text)));
    else if (type == "uchar") appendValue<uint8_t>(bytes, static_cast<uint8_t>(std::stoul(text)));
    else if (type == "short") appendValue<int16_t>(bytes, static_cast<int16_t>(std::stol(text)));
    else if (type == "ushort") appendValue<uint16_t>(bytes, static_cast<uint16_t>(std::stoul(text)));
    else if (type == "int") appendValue<int32_t>(bytes, static_cast<int32_t>(std::stol(text)));
    else if (type == "uint") appendValue<uint32_t>(bytes, static_cast<uint32_t>(std::stoul(text)));
    else if (type == "long") appendValue<int64_t>(bytes, static_cast<int64_t>(std::stoll(text)));
    else if (type == "ulong") appendValue<uint64_t>(bytes, static_cast<uint64_t>(std::stoull(text)));
    else throw std::runtime_error("unknown value type " + type);
}

ArgSpec parseArg(std::istringstream& words)
{
    ArgSpec arg;
    std::string kind;
    words >> arg.name >> kind;
    if (kind == "local") {
        arg.kind = ArgKind::Local;
        words >> arg.localBytes;
        if (!arg.localBytes)
            throw std::runtime_error("local arg needs a byte size");
        return arg;
    }
    if (kind == "image") {
        arg.kind = ArgKind::Image;
        return arg;
    }
    if (kind == "value") {
        arg.kind = ArgKind::Value;
        std::string types, values;
        words >> types >> values;
        std::vector<std::string> typeList = split(types, ','), valueList = split(values, ',');
        if (typeList.empty() || typeList.size() != valueList.size())
            throw std::runtime_error("value arg needs as many values as types");
        for (size_t i = 0; i < typeList.size(); i++)
            appendTyped(arg.valueBytes, typeList[i], valueList[i]);
        size_t align = 1;
        for (const std::string& t : typeList)
            align = std::max(align, scalarTypeSize(t));
        while (arg.valueBytes.size() % align)  // struct tail padding
            arg.valueBytes.push_back(0);
        return arg;
    }
    if (kind != "global" && kind != "constant")
        throw std::runtime_error("unknown arg kind " + kind);
    arg.kind = kind == "global" ? ArgKind::Global : ArgKind::Constant;
    std::string access;
    words >> arg.type >> arg.count >> arg.init >> access;
    auto [scalar, width] = splitVectorType(arg.type);
    auto found = scalarTypes().find(scalar);
    if (found == scalarTypes().end() || !arg.count || access.empty())
        throw std::runtime_error("bad buffer arg " + arg.name);
    arg.scalarSize = found->second.size;
    arg.isFloat = found->second.isFloat;
    arg.isSigned = found->second.isSigned;
    arg.width = width;
    arg.elem = arg.scalarSize;
    if (access == "r") arg.read = true;
    else if (access == "w") arg.write = true;
    else if (access == "rw") arg.read = arg.write = true;
    else if (access != "none") throw std::runtime_error("bad access " + access);
    bool storesGiven = false;
    std::string flag;
    while (words >> flag) {
        if (flag == "const") arg.pointeeConst = true;
        else if (flag == "restrict") arg.isRestrict = true;
        else if (flag == "elem=?") arg.elemAsserted = false;
        else if (flag == "read=?") arg.readAsserted = false;
        else if (flag.rfind("elem=", 0) == 0) arg.elem = std::stoul(flag.substr(5));
        else if (flag.rfind("store=", 0) == 0) {
            arg.storeSizes = parseSizes(flag.substr(6));
            storesGiven = true;
        } else throw std::runtime_error("unknown arg flag " + flag);
    }
    if (!storesGiven && arg.write)
        arg.storeSizes = {arg.scalarSize};
    std::sort(arg.storeSizes.begin(), arg.storeSizes.end());
    return arg;
}

void parseNDRange(std::istringstream& words, NDRangeSpec& range)
{
    words >> range.dims;
    if (range.dims < 1 || range.dims > 3)
        throw std::runtime_error("ndrange dims must be 1..3");
    std::string item;
    while (words >> item) {
        size_t eq = item.find('=');
        if (eq == std::string::npos)
            throw std::runtime_error("bad ndrange item " + item);
        std::string key = item.substr(0, eq);
        std::vector<size_t> values = parseSizes(item.substr(eq + 1));
        if (values.size() != range.dims)
            throw std::runtime_error("ndrange " + key + " needs one value per dimension");
        size_t* target = key == "global" ? range.global : key == "local" ? range.local
                       : key == "offset" ? range.offset : nullptr;
        if (!target)
            throw std::runtime_error("unknown ndrange key " + key);
        std::copy(values.begin(), values.end(), target);
    }
}

}  // namespace

size_t scalarTypeSize(const std::string& scalar)
{
    auto found = scalarTypes().find(scalar);
    return found == scalarTypes().end() ? 0 : found->second.size;
}

bool KernelSpec::uses_(const std::string& flag) const
{
    return std::find(uses.begin(), uses.end(), flag) != uses.end();
}

ProgramSpec loadProgram(const std::string& corpusDir, const std::string& fileName)
{
    return parseProgram(corpusDir, fileName, readFile(corpusDir + "/" + fileName));
}

ProgramSpec parseProgram(const std::string& corpusDir, const std::string& fileName, const std::string& text)
{
    static const std::vector<std::string> knownFlags = {"barrier", "localmem", "localatomics",
        "globalatomics", "printf", "images", "programscope", "storeinloop"};
    ProgramSpec program;
    program.file = fileName;
    std::vector<std::string> before;
    std::istringstream lines(text);
    std::string line;
    int lineNo = 0;
    while (std::getline(lines, line)) {
        lineNo++;
        if (line.rfind("//@", 0) != 0)
            continue;
        try {
            std::istringstream words(line.substr(3));
            std::string key;
            words >> key;
            KernelSpec* kernel = program.kernels.empty() ? nullptr : &program.kernels.back();
            if (key == "options") {
                std::getline(words, program.options);
                replaceAll(program.options, "@CORPUS@", corpusDir);
            } else if (key == "source-before") {
                std::string path;
                words >> path;
                before.push_back(readFile(corpusDir + "/" + path));
            } else if (key == "kernel") {
                KernelSpec spec;
                spec.file = fileName;
                words >> spec.name;
                std::string extra;
                while (words >> extra) {
                    if (extra.rfind("schedules=", 0) == 0) spec.schedules = std::stoi(extra.substr(10));
                    else throw std::runtime_error("unknown kernel option " + extra);
                }
                program.kernels.push_back(spec);
            } else if (!kernel) {
                throw std::runtime_error("'" + key + "' before any 'kernel' line");
            } else if (key == "requires") {
                std::string what;
                words >> what;
                if (what == "nonuniform")
                    kernel->requiresNonUniform = true;
                else if (what == "cl20")
                    kernel->requiresCl20 = true;
                else
                    throw std::runtime_error("unknown requirement " + what);
            } else if (key == "ndrange") {
                parseNDRange(words, kernel->ndrange);
                kernel->hasNDRange = true;
            } else if (key == "arg") {
                kernel->args.push_back(parseArg(words));
            } else if (key == "expect") {
                std::string verdict;
                words >> verdict;
                if (verdict == "splittable") {
                    kernel->expectSplittable = true;
                } else if (verdict == "refused") {
                    std::string keywords, rest;
                    words >> keywords;
                    if (std::getline(words, rest))  // keywords may contain spaces
                        keywords += rest;
                    kernel->reasonKeywords = split(keywords, '|');
                    if (kernel->reasonKeywords.empty())
                        throw std::runtime_error("refused needs a reason keyword");
                } else {
                    throw std::runtime_error("unknown verdict " + verdict);
                }
            } else if (key == "uses") {
                std::string flag;
                while (words >> flag) {
                    if (std::find(knownFlags.begin(), knownFlags.end(), flag) == knownFlags.end())
                        throw std::runtime_error("unknown uses flag " + flag);
                    kernel->uses.push_back(flag);
                }
            } else {
                throw std::runtime_error("unknown key " + key);
            }
        } catch (const std::exception& error) {
            throw std::runtime_error(fileName + ":" + std::to_string(lineNo) + ": " + error.what());
        }
    }
    program.sources = before;
    program.sources.push_back(text);
    std::string stem = fileName.substr(0, fileName.rfind('.'));
    for (KernelSpec& kernel : program.kernels)
        kernel.testId = kernel.name == stem ? kernel.name : stem + "." + kernel.name;
    return program;
}

std::vector<ProgramSpec> loadCorpus(const std::string& corpusDir)
{
    std::vector<std::string> names;
    if (DIR* dir = opendir(corpusDir.c_str())) {
        while (dirent* entry = readdir(dir)) {
            std::string name = entry->d_name;
            if (name.size() > 3 && name.compare(name.size() - 3, 3, ".cl") == 0)
                names.push_back(name);
        }
        closedir(dir);
    }
    std::sort(names.begin(), names.end());
    std::vector<ProgramSpec> programs;
    for (const std::string& name : names)
        programs.push_back(loadProgram(corpusDir, name));
    return programs;
}

}  // namespace corpus
