// How: each thread is sent a real-time signal with tgkill, one at a time; its handler records
// backtrace() into the one slot (async-signal-safe once the unwinder is loaded) and the caller waits
// for it with a timeout. A thread that answers late finds the slot no longer meant for it and leaves
// it alone. Names come from each module's own .symtab (Hetero's internals, hidden from .dynsym by its
// version script) or .dynsym (stripped drivers), read from the file.
#include "thread_stacks.hpp"

#include <cxxabi.h>
#include <dirent.h>
#include <elf.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace fuzz::thread_stacks {
namespace {

constexpr int kMaxFrames = 64;
int requestSignal = 0;

// The one request at a time: `target` is the thread asked (its tid), -tid while that thread writes
// its frames, 0 when no request is open.
std::atomic<pid_t> target{0};
std::atomic<bool> written{false};
void* frames[kMaxFrames];
int depth = 0;

pid_t currentTid() { return static_cast<pid_t>(syscall(SYS_gettid)); }

void onRequest(int) {
    int savedErrno = errno;
    pid_t me = currentTid();
    pid_t expected = me;
    if (target.compare_exchange_strong(expected, -me)) {
        depth = backtrace(frames, kMaxFrames);
        written.store(true);
    }
    errno = savedErrno;
}

std::string readLine(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

// A module's functions from its ELF file: .symtab where present, else .dynsym.
struct Symbols {
    struct Function {
        uint64_t value, size;
        uint32_t name;
    };
    std::vector<Function> functions;
    std::string names;
    bool executable = false;  // ET_EXEC: addresses are absolute
    uint64_t firstLoadVaddr = 0;
    bool readable = false;

    explicit Symbols(const std::string& path) {
        std::ifstream f(path, std::ios::binary);
        Elf64_Ehdr eh{};
        if (!f.read(reinterpret_cast<char*>(&eh), sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
            eh.e_ident[EI_CLASS] != ELFCLASS64)
            return;
        readable = true;
        executable = eh.e_type == ET_EXEC;
        std::vector<Elf64_Phdr> ph(eh.e_phnum);
        f.seekg(static_cast<std::streamoff>(eh.e_phoff));
        f.read(reinterpret_cast<char*>(ph.data()), static_cast<std::streamsize>(ph.size() * sizeof(Elf64_Phdr)));
        for (auto& p : ph)
            if (p.p_type == PT_LOAD) {
                firstLoadVaddr = p.p_vaddr & ~uint64_t(sysconf(_SC_PAGESIZE) - 1);
                break;
            }
        std::vector<Elf64_Shdr> sh(eh.e_shnum);
        f.seekg(static_cast<std::streamoff>(eh.e_shoff));
        if (!f.read(reinterpret_cast<char*>(sh.data()), static_cast<std::streamsize>(sh.size() * sizeof(Elf64_Shdr)))) return;
        const Elf64_Shdr* table = nullptr;
        for (Elf64_Word type : {Elf64_Word(SHT_SYMTAB), Elf64_Word(SHT_DYNSYM)}) {
            for (auto& s : sh)
                if (s.sh_type == type && s.sh_link < sh.size()) table = &s;
            if (table) break;
        }
        if (!table) return;
        std::vector<Elf64_Sym> syms(table->sh_size / sizeof(Elf64_Sym));
        f.seekg(static_cast<std::streamoff>(table->sh_offset));
        f.read(reinterpret_cast<char*>(syms.data()), static_cast<std::streamsize>(syms.size() * sizeof(Elf64_Sym)));
        const Elf64_Shdr& strings = sh[table->sh_link];
        names.resize(strings.sh_size);
        f.seekg(static_cast<std::streamoff>(strings.sh_offset));
        f.read(names.data(), static_cast<std::streamsize>(names.size()));
        if (!f) return;
        for (auto& s : syms) {
            int type = ELF64_ST_TYPE(s.st_info);
            if ((type == STT_FUNC || type == STT_GNU_IFUNC) && s.st_value && s.st_size && s.st_name < names.size())
                functions.push_back({s.st_value, s.st_size, s.st_name});
        }
    }

    // The function whose bytes hold `vaddr` (an address as the file's symbols count), or "".
    std::string nameOf(uint64_t vaddr, uint64_t& offset) const {
        for (auto& fn : functions)
            if (vaddr >= fn.value && vaddr < fn.value + fn.size) {
                offset = vaddr - fn.value;
                const char* mangled = names.c_str() + fn.name;
                int status = 0;
                std::unique_ptr<char, decltype(&std::free)> plain(abi::__cxa_demangle(mangled, nullptr, nullptr, &status), std::free);
                return status == 0 && plain ? plain.get() : mangled;
            }
        return "";
    }
};

// /proc/self/maps: what each address belongs to, and each file's load address.
class Modules {
public:
    Modules() {
        std::ifstream maps("/proc/self/maps");
        std::string line;
        while (std::getline(maps, line)) {
            Mapping m{};
            char perms[8] = {};
            int pathAt = 0;
            unsigned long long start, end, offset;
            if (std::sscanf(line.c_str(), "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &offset, &pathAt) < 4) continue;
            m.start = start, m.end = end, m.offset = offset;
            m.path = pathAt > 0 ? line.substr(static_cast<size_t>(pathAt)) : "";
            if (m.offset == 0 && !m.path.empty() && m.path[0] == '/' && !loadStart_.count(m.path)) loadStart_[m.path] = m.start;
            mappings_.push_back(m);
        }
    }

    // "function+0x1a  (/path/libx.so+0x1234)", as much of it as is known. `caller`: a return address,
    // looked up one byte back (a call may be a function's last instruction).
    std::string describe(uintptr_t address, bool caller) {
        for (auto& m : mappings_) {
            if (address < m.start || address >= m.end) continue;
            if (m.path.empty() || m.path[0] != '/') return m.path.empty() ? "(anonymous memory: generated code?)" : "(" + m.path + ")";
            Symbols& symbols = symbolsOf(m.path);
            uint64_t vaddr = symbols.executable ? address : address - loadStart_[m.path] + symbols.firstLoadVaddr;
            uint64_t offset = 0;
            std::string name = symbols.nameOf(vaddr - (caller ? 1 : 0), offset);
            std::ostringstream s;
            if (!name.empty()) s << name << "+0x" << std::hex << offset + (caller ? 1 : 0) << "  ";
            s << "(" << m.path << "+0x" << std::hex << vaddr << ")";
            return s.str();
        }
        return "(unmapped)";
    }

private:
    struct Mapping {
        uint64_t start, end, offset;
        std::string path;
    };
    Symbols& symbolsOf(const std::string& path) {
        auto it = symbols_.find(path);
        if (it == symbols_.end()) it = symbols_.emplace(path, std::make_unique<Symbols>(path)).first;
        return *it->second;
    }
    std::vector<Mapping> mappings_;
    std::map<std::string, uint64_t> loadStart_;
    std::map<std::string, std::unique_ptr<Symbols>> symbols_;
};

bool blocksSignal(pid_t tid, int sig) {
    std::ifstream status("/proc/self/task/" + std::to_string(tid) + "/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("SigBlk:", 0) == 0) return (std::strtoull(line.c_str() + 7, nullptr, 16) >> (sig - 1)) & 1;
    return false;
}

// Asks `tid` for its stack. Empty with `why` set when it did not answer.
std::vector<void*> stackOf(pid_t tid, std::chrono::milliseconds wait, std::string& why) {
    written = false;
    target = tid;
    if (syscall(SYS_tgkill, getpid(), tid, requestSignal) != 0) {
        target = 0;
        why = "exited";
        return {};
    }
    auto deadline = std::chrono::steady_clock::now() + wait;
    while (!written && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (!written) {
        pid_t expected = tid;
        if (target.compare_exchange_strong(expected, 0)) {
            why = "no answer within " + std::to_string(wait.count()) + " ms (stuck in the kernel?)";
            return {};
        }
        while (!written) std::this_thread::yield();  // it started writing just now
    }
    std::vector<void*> stack(frames, frames + depth);
    target = 0;
    return stack;
}

}  // namespace

bool prepare() {
    void* warm[1];
    backtrace(warm, 1);  // loads libgcc's unwinder now
    // From the top: libraries that take a real-time signal tend to take the lowest.
    for (int sig = SIGRTMAX; sig > SIGRTMIN; --sig) {
        struct sigaction old {};
        if (sigaction(sig, nullptr, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
        struct sigaction act {};
        act.sa_handler = onRequest;
        sigemptyset(&act.sa_mask);
        act.sa_flags = SA_RESTART;
        if (sigaction(sig, &act, nullptr) != 0) continue;
        requestSignal = sig;
        return true;
    }
    std::fprintf(stderr, "thread_stacks: no free real-time signal; hangs will be reported without stacks\n");
    return false;
}

void printAll(std::FILE* out, std::chrono::milliseconds perThread) {
    struct Seen {
        pid_t tid;
        std::string name, kernel, syscallLine, why;
        std::vector<void*> stack;
    };
    std::vector<Seen> threads;
    if (DIR* dir = opendir("/proc/self/task")) {
        while (dirent* e = readdir(dir))
            if (e->d_name[0] != '.') threads.push_back({static_cast<pid_t>(std::atoi(e->d_name)), {}, {}, {}, {}, {}});
        closedir(dir);
    }
    std::sort(threads.begin(), threads.end(), [](const Seen& a, const Seen& b) { return a.tid < b.tid; });
    // First every stack, then the names: nothing is loaded or unloaded in between that way.
    for (Seen& t : threads) {
        std::string task = "/proc/self/task/" + std::to_string(t.tid);
        t.name = readLine(task + "/comm");
        std::string stat = readLine(task + "/stat");
        size_t close = stat.rfind(')');
        t.kernel = std::string("state ") + (close != std::string::npos && close + 2 < stat.size() ? stat[close + 2] : '?') +
                   ", wchan " + readLine(task + "/wchan");
        t.syscallLine = readLine(task + "/syscall");
        if (requestSignal == 0) t.why = "no signal to ask with";
        else if (blocksSignal(t.tid, requestSignal)) t.why = "it blocks signal " + std::to_string(requestSignal);
        else t.stack = stackOf(t.tid, perThread, t.why);
    }
    Modules modules;
    std::fprintf(out, "=== native stacks of all %zu threads (the kernel's view first: state, wait channel, system call) ===\n",
                 threads.size());
    for (Seen& t : threads) {
        std::fprintf(out, "--- thread %d \"%s\"%s: %s, syscall %s\n", t.tid, t.name.c_str(),
                     t.tid == currentTid() ? " (this one, printing)" : "", t.kernel.c_str(), t.syscallLine.c_str());
        if (t.stack.empty()) {
            // The user-space address it entered the kernel from is the syscall line's last field.
            size_t lastSpace = t.syscallLine.rfind(' ');
            uintptr_t pc = lastSpace == std::string::npos ? 0 : std::strtoull(t.syscallLine.c_str() + lastSpace + 1, nullptr, 16);
            std::fprintf(out, "    no stack: %s%s%s\n", t.why.c_str(), pc ? "; entered the kernel from " : "",
                         pc ? modules.describe(pc, false).c_str() : "");
            continue;
        }
        // The first two frames are the handler and the signal trampoline; the third was interrupted.
        for (size_t i = 2; i < t.stack.size(); ++i) {
            auto address = reinterpret_cast<uintptr_t>(t.stack[i]);
            std::fprintf(out, "    #%-2zu 0x%012llx  %s\n", i - 2, static_cast<unsigned long long>(address),
                         modules.describe(address, i > 2).c_str());
        }
        std::fflush(out);
    }
    std::fprintf(out, "=== end of stacks ===\n");
    std::fflush(out);
}

}  // namespace fuzz::thread_stacks
