#pragma once
/// A small JSON reader and writer for the request/response protocol between the Python
/// surface and the core, and for the IR's JSON exchange form. Numbers are doubles, objects keep
/// insertion order, and parse errors throw std::invalid_argument with the byte offset.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nki::util {

class Json {
public:
  enum class Type { Null, Bool, Number, String, Array, Object };

  Json() = default;
  static Json parse(std::string_view text);

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::Null; }
  bool is_number() const { return type_ == Type::Number; }
  bool is_string() const { return type_ == Type::String; }
  bool is_array() const { return type_ == Type::Array; }
  bool is_object() const { return type_ == Type::Object; }
  bool is_bool() const { return type_ == Type::Bool; }

  double number() const;
  /// The number as an integer; throws std::invalid_argument when it is not integral.
  int64_t integer() const;
  bool boolean() const;
  const std::string& string() const;
  const std::vector<Json>& array() const;
  size_t size() const;
  const Json& operator[](size_t i) const;

  /// Member lookup; returns a null value when absent (never throws).
  const Json& operator[](std::string_view key) const;
  bool has(std::string_view key) const;
  const std::vector<std::pair<std::string, Json>>& members() const;

  int64_t get_int(std::string_view key, int64_t fallback) const;
  std::string get_string(std::string_view key, std::string fallback = "") const;
  std::vector<int64_t> int_list() const;

private:
  friend class JsonParser;
  Type type_ = Type::Null;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<Json> array_;
  std::vector<std::pair<std::string, Json>> object_;
};

/// Appends JSON text. Callers drive structure; the writer handles commas and escaping.
class JsonWriter {
public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);
  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
  JsonWriter& value(int64_t n);
  JsonWriter& value(int n) { return value(static_cast<int64_t>(n)); }
  JsonWriter& value(double d);
  JsonWriter& value(bool b);
  JsonWriter& null();
  JsonWriter& int_list(const std::vector<int64_t>& v);
  /// Appends already-encoded JSON as the next array element.
  JsonWriter& key_less_raw(std::string_view json);
  const std::string& str() const { return out_; }
  std::string take() { return std::move(out_); }

private:
  void comma();
  std::string out_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

void append_escaped(std::string& out, std::string_view s);

} // namespace nki::util
