// A JVM kept running across replays (witness::JvmSession): a generated server class reads one
// request per line, runs the request's driver in a fresh class loader and answers with a
// terminator line (docs/witnesses.md).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "pasda/jvm/loader.hpp"
#include "pasda/product/assembler.hpp"
#include "pasda/witness/witness.hpp"
#include "driver.hpp"
#include "render.hpp"

namespace pasda::witness {

namespace fs = std::filesystem;
using jvm::Opcode;
using detail::findJava;
using detail::printString;

// ----- a JVM kept running across replays -----

namespace {

constexpr const char* kServer = "PasdaReplayServer";
constexpr const char* kReady = "PASDA-SERVER ready";
constexpr const char* kParentProperty = "pasda.parent";  // the /proc directory of the JVM's parent

/// Server code: local 5 := a URLClassLoader over the class path before the last tab of line
/// (local 2; its entries separated by tabs), parented by the platform loader, and made the
/// thread's context loader. Locals: 3 the last tab's index, 4 the URL array, 9 the entries,
/// 10 the loop index.
void emitLoaderOfLine(product::Assembler& a, jvm::ClassFile& cf) {
  using O = Opcode;
  a.load('L', 2);
  a.iconst('\t');
  a.invoke(O::invokevirtual, "java/lang/String", "lastIndexOf", "(I)I");
  a.store('I', 3);
  a.load('L', 2);
  a.iconst(0);
  a.load('I', 3);
  a.invoke(O::invokevirtual, "java/lang/String", "substring", "(II)Ljava/lang/String;");
  a.ldcString("\t");
  a.invoke(O::invokevirtual, "java/lang/String", "split", "(Ljava/lang/String;)[Ljava/lang/String;");
  a.store('L', 9);
  a.load('L', 9);
  a.op(O::arraylength);
  a.op(O::anewarray);
  a.u2(cf.pool.addClass("java/net/URL"));
  a.store('L', 4);
  a.iconst(0);
  a.store('I', 10);
  const int test = a.newLabel(), done = a.newLabel();
  a.bind(test);
  a.load('I', 10);
  a.load('L', 9);
  a.op(O::arraylength);
  a.jump(O::if_icmpge, done);
  a.load('L', 4);
  a.load('I', 10);
  a.newObject("java/io/File");
  a.op(O::dup);
  a.load('L', 9);
  a.load('I', 10);
  a.op(O::aaload);
  a.invoke(O::invokespecial, "java/io/File", "<init>", "(Ljava/lang/String;)V");
  a.invoke(O::invokevirtual, "java/io/File", "toURI", "()Ljava/net/URI;");
  a.invoke(O::invokevirtual, "java/net/URI", "toURL", "()Ljava/net/URL;");
  a.op(O::aastore);
  a.op(O::iinc);
  a.u1(10);
  a.u1(1);
  a.jump(O::goto_, test);
  a.bind(done);
  a.newObject("java/net/URLClassLoader");
  a.op(O::dup);
  a.load('L', 4);
  a.invoke(O::invokestatic, "java/lang/ClassLoader", "getPlatformClassLoader", "()Ljava/lang/ClassLoader;");
  a.invoke(O::invokespecial, "java/net/URLClassLoader", "<init>", "([Ljava/net/URL;Ljava/lang/ClassLoader;)V");
  a.store('L', 5);
  a.invoke(O::invokestatic, "java/lang/Thread", "currentThread", "()Ljava/lang/Thread;");
  a.load('L', 5);
  a.invoke(O::invokevirtual, "java/lang/Thread", "setContextClassLoader", "(Ljava/lang/ClassLoader;)V");
}

/// Server code: load the class named after the last tab of line (local 2) in loader (local 5) and
/// invoke its main with no arguments.
void emitRunMainOfLine(product::Assembler& a, jvm::ClassFile& cf) {
  using O = Opcode;
  a.load('L', 2);
  a.load('I', 3);
  a.iconst(1);
  a.op(O::iadd);
  a.invoke(O::invokevirtual, "java/lang/String", "substring", "(I)Ljava/lang/String;");
  a.iconst(1);
  a.load('L', 5);
  a.invoke(O::invokestatic, "java/lang/Class", "forName",
           "(Ljava/lang/String;ZLjava/lang/ClassLoader;)Ljava/lang/Class;");
  a.store('L', 6);
  a.load('L', 6);
  a.ldcString("main");
  a.iconst(1);
  a.op(O::anewarray);
  a.u2(cf.pool.addClass("java/lang/Class"));
  a.op(O::dup);
  a.iconst(0);
  a.op(O::ldc_w);
  a.u2(cf.pool.addClass("[Ljava/lang/String;"));
  a.op(O::aastore);
  a.invoke(O::invokevirtual, "java/lang/Class", "getMethod",
           "(Ljava/lang/String;[Ljava/lang/Class;)Ljava/lang/reflect/Method;");
  a.store('L', 7);
  a.load('L', 7);
  a.op(O::aconst_null);
  a.iconst(1);
  a.op(O::anewarray);
  a.u2(cf.pool.addClass("java/lang/Object"));
  a.op(O::dup);
  a.iconst(0);
  a.iconst(0);
  a.op(O::anewarray);
  a.u2(cf.pool.addClass("java/lang/String"));
  a.op(O::aastore);
  a.invoke(O::invokevirtual, "java/lang/reflect/Method", "invoke",
           "(Ljava/lang/Object;[Ljava/lang/Object;)Ljava/lang/Object;");
  a.op(O::pop);
}

// The JDK-wide state a request may change (detail::emitSaveGlobals) is kept in locals from
// kSaved on, saved before the first request and put back after every one.
constexpr int kSaved = 11;  // after the emitters' locals 1..10

void saveGlobals(product::Assembler& a, jvm::ClassFile& cf) {
  detail::emitSaveGlobals(a, cf.pool, [&](int k) { a.store('L', kSaved + k); });
}
void restoreGlobals(product::Assembler& a, jvm::ClassFile& cf) {
  detail::emitRestoreGlobals(a, cf.pool, [&](int k) { a.load('L', kSaved + k); });
}

// The server's main: for each line "<entry>\t...\t<entry>\t<class>" of standard input, load
// <class> in a new URLClassLoader over the entries (parent: the platform loader, so nothing of
// the server's own class path is visible), invoke its main(String[]), and print the terminator
// line.
jvm::ClassFile buildServer() {
  using O = Opcode;
  jvm::ClassFile cf;
  cf.major_version = 49;
  cf.access_flags = jvm::acc::Public | jvm::acc::Super;
  cf.this_class = cf.pool.addClass(kServer);
  cf.super_class = cf.pool.addClass("java/lang/Object");
  // A watchdog: the server ends when the process that started it is gone (a release worker
  // killed at the diff's deadline, a run killed by a harness) even while a replayed method hangs
  // — an orphan replay JVM ran on, spinning, after its pasda-jvm had ended. The parent's
  // /proc directory comes as the system property pasda.parent; the server is the watchdog's
  // Runnable: run() { while (new File(parent).exists()) Thread.sleep(500); Runtime.halt(0); }.
  cf.interfaces.push_back(cf.pool.addClass("java/lang/Runnable"));
  {
    product::Assembler c(cf.pool);
    c.load('L', 0);
    c.invoke(O::invokespecial, "java/lang/Object", "<init>", "()V");
    c.op(O::return_);
    cf.methods.push_back(product::codeMethod(cf, jvm::acc::Public, "<init>", "()V", c.finish(), 1, 1));
    product::Assembler r(cf.pool);
    const int watch = r.newLabel();
    r.ldcString(kParentProperty);
    r.invoke(O::invokestatic, "java/lang/System", "getProperty", "(Ljava/lang/String;)Ljava/lang/String;");
    r.store('L', 1);
    r.bind(watch);
    r.op(O::ldc2_w);
    r.u2(cf.pool.addLong(500));
    r.invoke(O::invokestatic, "java/lang/Thread", "sleep", "(J)V");
    r.newObject("java/io/File");
    r.op(O::dup);
    r.load('L', 1);
    r.invoke(O::invokespecial, "java/io/File", "<init>", "(Ljava/lang/String;)V");
    r.invoke(O::invokevirtual, "java/io/File", "exists", "()Z");
    r.jump(O::ifne, watch);
    r.invoke(O::invokestatic, "java/lang/Runtime", "getRuntime", "()Ljava/lang/Runtime;");
    r.iconst(0);
    r.invoke(O::invokevirtual, "java/lang/Runtime", "halt", "(I)V");
    r.op(O::return_);
    cf.methods.push_back(product::codeMethod(cf, jvm::acc::Public, "run", "()V", r.finish(), 4, 2));
  }
  product::Assembler a(cf.pool);
  {  // if (System.getProperty("pasda.parent") != null) a daemon Thread(new Server()) starts
    const int none = a.newLabel();
    a.ldcString(kParentProperty);
    a.invoke(O::invokestatic, "java/lang/System", "getProperty", "(Ljava/lang/String;)Ljava/lang/String;");
    a.jump(O::ifnull, none);
    a.newObject("java/lang/Thread");
    a.op(O::dup);
    a.newObject(kServer);
    a.op(O::dup);
    a.invoke(O::invokespecial, kServer, "<init>", "()V");
    a.invoke(O::invokespecial, "java/lang/Thread", "<init>", "(Ljava/lang/Runnable;)V");
    a.op(O::dup);
    a.iconst(1);
    a.invoke(O::invokevirtual, "java/lang/Thread", "setDaemon", "(Z)V");
    a.invoke(O::invokevirtual, "java/lang/Thread", "start", "()V");
    a.bind(none);
  }
  a.newObject("java/io/BufferedReader");
  a.op(O::dup);
  a.newObject("java/io/InputStreamReader");
  a.op(O::dup);
  a.field(O::getstatic, "java/lang/System", "in", "Ljava/io/InputStream;");
  a.invoke(O::invokespecial, "java/io/InputStreamReader", "<init>", "(Ljava/io/InputStream;)V");
  a.invoke(O::invokespecial, "java/io/BufferedReader", "<init>", "(Ljava/io/Reader;)V");
  a.store('L', 1);
  saveGlobals(a, cf);
  const int loop = a.newLabel(), body = a.newLabel(), ready = a.newLabel();
  a.bind(loop);
  a.load('L', 1);
  a.invoke(O::invokevirtual, "java/io/BufferedReader", "readLine", "()Ljava/lang/String;");
  a.store('L', 2);
  a.load('L', 2);
  a.jump(O::ifnonnull, body);
  a.op(O::return_);
  a.bind(body);
  const std::uint16_t start = a.here();
  emitLoaderOfLine(a, cf);
  emitRunMainOfLine(a, cf);
  a.load('L', 5);
  a.invoke(O::invokevirtual, "java/net/URLClassLoader", "close", "()V");
  const std::uint16_t end = a.here();
  a.jump(O::goto_, ready);
  const std::uint16_t handler = a.here();
  a.store('L', 8);
  restoreGlobals(a, cf);  // (its line must reach the real System.out)
  printString(a, "PASDA-SERVER error", true);
  a.bind(ready);
  restoreGlobals(a, cf);
  printString(a, kReady, true);
  a.field(O::getstatic, "java/lang/System", "out", "Ljava/io/PrintStream;");
  a.invoke(O::invokevirtual, "java/io/PrintStream", "flush", "()V");
  a.jump(O::goto_, loop);
  std::vector<jvm::ExceptionHandler> handlers{{start, end, handler, cf.pool.addClass("java/lang/Throwable")}};
  cf.methods.push_back(product::codeMethod(cf, jvm::acc::Public | jvm::acc::Static, "main", "([Ljava/lang/String;)V",
                                           a.finish(), 10, kSaved + detail::kGlobalCount, std::move(handlers)));
  return cf;
}

}  // namespace

struct JvmSession::Impl {
  std::string java;
  fs::path dir;  // holds the server class
  pid_t pid = -1;
  int to = -1, from = -1;  // the server's standard input and output
  std::string pending;     // output read past the last terminator
  int starts = 0, requests = 0;

  void stop() {
    if (to >= 0) ::close(to);
    if (from >= 0) ::close(from);
    to = from = -1;
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      int status = 0;
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
    }
    pid = -1;
    pending.clear();
  }

  bool start() {
    if (java.empty()) return false;
    std::error_code ec;
    if (dir.empty()) {
      // (in the temporary directory, $TMPDIR: a release diff's worker has one of its own, which
      // its coordinator removes however the worker ends)
      fs::path root = fs::temp_directory_path(ec);
      if (ec) root = "/tmp";
      std::string tmpl = (root / "pasda-jvm-server-XXXXXX").string();
      if (!::mkdtemp(tmpl.data())) return false;
      dir = tmpl;
      std::vector<std::uint8_t> bytes = jvm::writeClass(buildServer());
      std::ofstream f(dir / (std::string(kServer) + ".class"), std::ios::binary);
      f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
      if (!f) return false;
    }
    int in[2], out[2];
    if (::pipe2(in, O_CLOEXEC) != 0) return false;
    if (::pipe2(out, O_CLOEXEC) != 0) {
      ::close(in[0]);
      ::close(in[1]);
      return false;
    }
    std::vector<std::string> argv{java};
    for (const std::string& o : detail::jvmOptions()) argv.push_back(o);
    argv.push_back(std::string("-D") + kParentProperty + "=/proc/" + std::to_string(::getpid()));
    argv.insert(argv.end(), {"-cp", dir.string(), kServer});
    pid = ::fork();
    if (pid < 0) {
      for (int fd : {in[0], in[1], out[0], out[1]}) ::close(fd);
      return false;
    }
    if (pid == 0) {
      ::dup2(in[0], 0);
      ::dup2(out[1], 1);
      ::dup2(out[1], 2);
      std::vector<char*> args;
      for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      ::execv(args[0], args.data());
      ::_exit(127);
    }
    ::close(in[0]);
    ::close(out[1]);
    to = in[1];
    from = out[0];
    ++starts;
    return true;
  }
};

JvmSession::JvmSession(std::string java) : impl_(std::make_unique<Impl>()) { impl_->java = findJava(java); }

JvmSession::~JvmSession() {
  impl_->stop();
  std::error_code ec;
  if (!impl_->dir.empty()) fs::remove_all(impl_->dir, ec);
}

bool JvmSession::warmUp() { return impl_->pid >= 0 || impl_->start(); }

int JvmSession::starts() const { return impl_->starts; }
int JvmSession::requests() const { return impl_->requests; }

bool JvmSession::run(const std::string& classDir, const std::string& driverClass, double timeoutS, std::string& output,
                     bool& timedOut) {
  return run(std::vector<std::string>{classDir}, driverClass, timeoutS, output, timedOut);
}

bool JvmSession::run(const std::vector<std::string>& classPath, const std::string& driverClass, double timeoutS,
                     std::string& output, bool& timedOut) {
  Impl& I = *impl_;
  timedOut = false;
  std::string request;
  for (const std::string& e : classPath) {
    if (e.find_first_of("\t\n\r") != std::string::npos) return false;
    request += e + "\t";
  }
  if (classPath.empty() || driverClass.find_first_of("\t\n\r") != std::string::npos) return false;
  std::string dotted = driverClass;  // Class.forName takes the binary name
  for (char& c : dotted)
    if (c == '/') c = '.';
  request += dotted + "\n";
  if (I.pid < 0 && !I.start()) return false;
  ++I.requests;
  const struct sigaction ignore = [] {
    struct sigaction sa {};
    sa.sa_handler = SIG_IGN;
    return sa;
  }();
  struct sigaction previous {};
  ::sigaction(SIGPIPE, &ignore, &previous);  // a JVM that died must not end this process
  bool sent = ::write(I.to, request.data(), request.size()) == static_cast<ssize_t>(request.size());
  ::sigaction(SIGPIPE, &previous, nullptr);
  if (!sent) {  // the JVM is gone: start a new one for this request
    I.stop();
    if (!I.start()) return false;
    if (::write(I.to, request.data(), request.size()) != static_cast<ssize_t>(request.size())) return false;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<long long>(timeoutS * 1000));
  std::string got = I.pending;
  I.pending.clear();
  char buf[8192];
  for (;;) {
    auto at = got.find(kReady);
    if (at != std::string::npos && (at == 0 || got[at - 1] == '\n')) {
      auto eol = got.find('\n', at);
      if (eol != std::string::npos) {
        output = got.substr(0, at);
        I.pending = got.substr(eol + 1);
        // The server class is loaded now: its file is not needed until a restart writes it
        // again (so that a process ended by a signal leaves nothing behind).
        std::error_code ec;
        if (!I.dir.empty()) fs::remove_all(I.dir, ec);
        I.dir.clear();
        return true;
      }
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      timedOut = true;
      output = got;
      I.stop();  // a hung replay: the next request gets a fresh JVM
      return true;
    }
    pollfd p{I.from, POLLIN, 0};
    int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) continue;
    ssize_t n = ::read(I.from, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {  // the JVM ended (System.exit in the replayed code, a crash)
      output = got;
      I.stop();
      return true;
    }
    if (got.size() < (64u << 20)) got.append(buf, static_cast<std::size_t>(n));
  }
}

}  // namespace pasda::witness
