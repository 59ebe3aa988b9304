// Helpers for the witness tests: a fixture pair loaded as the analysis driver loads it
// (renamed versions + generated product in a Program), written out as a class-path root for
// the JVM replay, and input vectors built from Java values.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

#include "pasda/jvm/loader.hpp"
#include "pasda/product/product.hpp"
#include "pasda/symexec/program.hpp"
#include "pasda/witness/witness.hpp"

namespace wtest {

namespace fs = std::filesystem;
using pasda::terms::Sort;
using pasda::witness::InputValue;

inline InputValue I(std::int32_t v) { return {Sort::Int, static_cast<std::uint64_t>(static_cast<std::int64_t>(v))}; }
inline InputValue J(std::int64_t v) { return {Sort::Long, static_cast<std::uint64_t>(v)}; }
inline InputValue D(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, 8);
  return {Sort::Double, b};
}
inline InputValue F(float v) {
  std::uint32_t b;
  std::memcpy(&b, &v, 4);
  return {Sort::Float, b};
}

/// A temporary directory removed at scope exit.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag) {
    path = fs::temp_directory_path() / ("pasda-witness-" + tag + "-" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

/// A fixture pair under ${PASDA_FIXTURE_CLASSES}/<rel>/{old,new}, class `internal`.
class Pair {
 public:
  Pair(const std::string& rel, const std::string& internal, const std::string& method, const std::string& desc)
      : method_(method), desc_(desc) {
    oldRoot_ = std::string(PASDA_FIXTURE_CLASSES) + "/" + rel + "/old";
    newRoot_ = std::string(PASDA_FIXTURE_CLASSES) + "/" + rel + "/new";
    old_ = pasda::jvm::loadClassFile(oldRoot_ + "/" + internal + ".class");
    new_ = pasda::jvm::loadClassFile(newRoot_ + "/" + internal + ".class");
    oldName_ = pasda::product::versionName(internal, pasda::Version::kOld);
    newName_ = pasda::product::versionName(internal, pasda::Version::kNew);
    pasda::product::prepareVersion(old_, oldName_, method, desc);
    pasda::product::prepareVersion(new_, newName_, method, desc);
    productName_ = internal + "$Product";
    pasda::product::ProductSpec spec;
    spec.old_class = oldName_;
    spec.new_class = newName_;
    spec.method = method;
    spec.descriptor = desc;
    spec.product_class = productName_;
    product_ = pasda::product::buildProduct(spec);
    program_.add(pasda::symexec::kProduct, product_.product);
    program_.add(pasda::symexec::kProduct, product_.exception);
    program_.add(pasda::symexec::kOld, old_);
    program_.add(pasda::symexec::kNew, new_);
    program_.setClassPath(pasda::symexec::kOld,
                          std::make_shared<pasda::jvm::ClassPath>(pasda::jvm::ClassPath::parse(oldRoot_)));
    program_.setClassPath(pasda::symexec::kNew,
                          std::make_shared<pasda::jvm::ClassPath>(pasda::jvm::ClassPath::parse(newRoot_)));
    env_.program = &program_;
    // (the product's run returns an Object for a method returning a reference)
    std::string runDesc = desc;
    const std::size_t close = desc.find(')');
    if (close != std::string::npos && close + 1 < desc.size() && (desc[close + 1] == 'L' || desc[close + 1] == '['))
      runDesc = desc.substr(0, close + 1) + "Ljava/lang/Object;";
    env_.product_run = program_.find(pasda::symexec::kProduct, productName_)->method("run", runDesc);
    env_.product_class = productName_;
    env_.main_class[pasda::symexec::kOld] = oldName_;  // as the witness stage sets them
    env_.main_class[pasda::symexec::kNew] = newName_;
    env_.input_types = pasda::jvm::parseMethodDescriptor(desc).params;
    env_.arith = pasda::terms::Arith::Java;
  }

  const pasda::witness::ReplayEnv& env() const { return env_; }
  const std::string& oldRoot() const { return oldRoot_; }
  const std::string& newRoot() const { return newRoot_; }
  const std::string& oldName() const { return oldName_; }
  const std::string& newName() const { return newName_; }

  /// Write the product and the renamed versions under `dir` (what emitProduct writes).
  void emit(const fs::path& dir) const {
    for (const pasda::jvm::ClassFile* cf : {&product_.product, &product_.exception, &old_, &new_}) {
      fs::path file = dir / (cf->name() + ".class");
      fs::create_directories(file.parent_path());
      std::vector<std::uint8_t> bytes = pasda::jvm::writeClass(*cf);
      std::ofstream out(file, std::ios::binary);
      out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
  }

  std::optional<std::vector<pasda::witness::Replay>> jvm(const fs::path& dir,
                                                          const std::vector<std::vector<InputValue>>& inputs) const {
    emit(dir);
    return pasda::witness::replayJvm(dir.string(), env_, oldName_, newName_, method_, desc_, inputs);
  }

 private:
  std::string method_, desc_;
  std::string oldRoot_, newRoot_, oldName_, newName_, productName_;
  pasda::jvm::ClassFile old_, new_;
  pasda::product::ProductClasses product_;
  pasda::symexec::Program program_;
  pasda::witness::ReplayEnv env_;
};

}  // namespace wtest
