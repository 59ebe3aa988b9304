// The product class of the paper's template, generated as a real class file: it calls the
// old version, then the new one, each inside its own try/catch, compares the exception types
// and then the results, and throws DifferentOutputsException when they differ.
#pragma once

#include <string>
#include <vector>

#include "pasda/core/version.hpp"
#include "pasda/jvm/classfile.hpp"
#include "pasda/jvm/descriptor.hpp"

namespace pasda::product {

struct ProductSpec {
  std::string old_class;        // internal names of the (renamed) versions
  std::string new_class;
  std::string method;           // the compared static method
  std::string descriptor;
  std::string product_class;    // internal name of the class to generate, e.g. demo/Foo$Product
  bool is_static = true;        // instance methods get one receiver per version
  bool is_constructor = false;  // method "<init>": the effect is the constructed object
  std::string orig_old, orig_new;  // original internal names (types mentioning them are renamed)
};

/// Descriptor of the product's run method: receivers (old, new) for instance methods, each
/// primitive parameter once, each reference parameter twice (old-typed, new-typed); returns
/// the method's primitive type, V, or java/lang/Object for references and constructors.
std::string runDescriptor(const ProductSpec& spec);
/// `descriptor` with the original class name replaced by the version's name.
std::string versionDescriptor(const ProductSpec& spec, Version v);

struct ProductClasses {
  jvm::ClassFile product;    // static run(params), sameErrors, sameResults, main(String[])
  jvm::ClassFile exception;  // <product_class>$DifferentOutputsException extends RuntimeException
};

/// Build the product class and its exception class (class-file version 49, so that no
/// StackMapTable is needed; a real JVM loads them with -Xverify:all).
ProductClasses buildProduct(const ProductSpec& spec);

/// Internal name for a renamed version: demo/Foo -> demo/Foo$V1 (old) or demo/Foo$V2 (new).
std::string versionName(const std::string& internalName, Version v);

/// Rename a version class for loading side by side, and make it and `method` public so the
/// product (in the same package) can call it from a real JVM.
void prepareVersion(jvm::ClassFile& cf, const std::string& newName, const std::string& method,
                    const std::string& descriptor);

}  // namespace pasda::product
