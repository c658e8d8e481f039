#include "util/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace nki::util {

namespace {
const Json& null_json() {
  static const Json j;
  return j;
}
} // namespace

class JsonParser {
public:
  explicit JsonParser(std::string_view s) : s_(s) {}

  Json parse_document() {
    Json v = parse_value();
    skip_ws();
    if (pos_ != s_.size()) fail("trailing characters");
    return v;
  }

private:
  [[noreturn]] void fail(const char* what) {
    throw std::invalid_argument(std::string("invalid JSON at offset ") + std::to_string(pos_) +
                                ": " + what);
  }
  void skip_ws() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t'))
      ++pos_;
  }
  bool consume(std::string_view lit) {
    if (s_.substr(pos_, lit.size()) == lit) {
      pos_ += lit.size();
      return true;
    }
    return false;
  }
  Json parse_value() {
    skip_ws();
    if (pos_ >= s_.size()) fail("unexpected end");
    Json v;
    char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      v.type_ = Json::Type::Object;
      v.object_.reserve(8);
      skip_ws();
      if (pos_ < s_.size() && s_[pos_] == '}') {
        ++pos_;
        return v;
      }
      for (;;) {
        skip_ws();
        if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected key");
        std::string k = parse_string();
        skip_ws();
        if (pos_ >= s_.size() || s_[pos_] != ':') fail("expected ':'");
        ++pos_;
        v.object_.emplace_back(std::move(k), parse_value());
        skip_ws();
        if (pos_ < s_.size() && s_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < s_.size() && s_[pos_] == '}') {
          ++pos_;
          return v;
        }
        fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      ++pos_;
      v.type_ = Json::Type::Array;
      v.array_.reserve(4);
      skip_ws();
      if (pos_ < s_.size() && s_[pos_] == ']') {
        ++pos_;
        return v;
      }
      for (;;) {
        v.array_.push_back(parse_value());
        skip_ws();
        if (pos_ < s_.size() && s_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (pos_ < s_.size() && s_[pos_] == ']') {
          ++pos_;
          return v;
        }
        fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      v.type_ = Json::Type::String;
      v.string_ = parse_string();
      return v;
    }
    if (consume("true")) {
      v.type_ = Json::Type::Bool;
      v.bool_ = true;
      return v;
    }
    if (consume("false")) {
      v.type_ = Json::Type::Bool;
      return v;
    }
    if (consume("null")) return v;
    if (consume("NaN")) {
      v.type_ = Json::Type::Number;
      v.number_ = std::nan("");
      return v;
    }
    if (consume("Infinity")) {
      v.type_ = Json::Type::Number;
      v.number_ = INFINITY;
      return v;
    }
    if (consume("-Infinity")) {
      v.type_ = Json::Type::Number;
      v.number_ = -INFINITY;
      return v;
    }
    size_t start = pos_;
    { // Fast path: a plain integer (most numbers in requests are).
      size_t p = pos_;
      bool neg = p < s_.size() && s_[p] == '-';
      if (neg) ++p;
      size_t digits = p;
      int64_t n = 0;
      while (p < s_.size() && s_[p] >= '0' && s_[p] <= '9' && p - digits < 18)
        n = n * 10 + (s_[p++] - '0');
      bool more = p < s_.size() &&
                  (s_[p] == '.' || s_[p] == 'e' || s_[p] == 'E' || (s_[p] >= '0' && s_[p] <= '9'));
      if (p > digits && !more) {
        pos_ = p;
        v.type_ = Json::Type::Number;
        v.number_ = static_cast<double>(neg ? -n : n);
        return v;
      }
    }
    if (pos_ < s_.size() && (s_[pos_] == '-' || s_[pos_] == '+')) ++pos_;
    while (pos_ < s_.size() &&
           ((s_[pos_] >= '0' && s_[pos_] <= '9') || s_[pos_] == '.' || s_[pos_] == 'e' ||
            s_[pos_] == 'E' || s_[pos_] == '-' || s_[pos_] == '+'))
      ++pos_;
    if (start == pos_) fail("unexpected character");
    std::string num(s_.substr(start, pos_ - start));
    char* end = nullptr;
    v.type_ = Json::Type::Number;
    v.number_ = std::strtod(num.c_str(), &end);
    if (end != num.c_str() + num.size()) fail("bad number");
    return v;
  }
  static void put_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  uint32_t hex4() {
    if (pos_ + 4 > s_.size()) fail("bad \\u escape");
    uint32_t cp = 0;
    for (int i = 0; i < 4; ++i) {
      char h = s_[pos_++];
      cp <<= 4;
      if (h >= '0' && h <= '9')
        cp |= h - '0';
      else if (h >= 'a' && h <= 'f')
        cp |= h - 'a' + 10;
      else if (h >= 'A' && h <= 'F')
        cp |= h - 'A' + 10;
      else
        fail("bad \\u escape");
    }
    return cp;
  }
  std::string parse_string() {
    ++pos_; // opening quote
    // Fast path: no escapes before the closing quote.
    size_t end = pos_;
    while (end < s_.size() && s_[end] != '"' && s_[end] != '\\') ++end;
    if (end < s_.size() && s_[end] == '"') {
      std::string out(s_.substr(pos_, end - pos_));
      pos_ = end + 1;
      return out;
    }
    std::string out;
    while (pos_ < s_.size()) {
      char c = s_[pos_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) break;
      char e = s_[pos_++];
      switch (e) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        uint32_t cp = hex4();
        if (cp >= 0xD800 && cp < 0xDC00 && consume("\\u")) {
          uint32_t lo = hex4();
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
        }
        put_utf8(out, cp);
        break;
      }
      default:
        fail("bad escape");
      }
    }
    fail("unterminated string");
  }

  std::string_view s_;
  size_t pos_ = 0;
};

Json Json::parse(std::string_view text) {
  return JsonParser(text).parse_document();
}

double Json::number() const {
  if (type_ == Type::Bool) return bool_ ? 1 : 0;
  if (type_ == Type::String) {
    if (string_ == "NaN") return std::nan("");
    if (string_ == "Infinity") return INFINITY;
    if (string_ == "-Infinity") return -INFINITY;
  }
  if (type_ != Type::Number) throw std::invalid_argument("JSON value is not a number");
  return number_;
}
int64_t Json::integer() const {
  double d = number();
  if (std::floor(d) != d) throw std::invalid_argument("JSON number is not an integer");
  return static_cast<int64_t>(d);
}
bool Json::boolean() const {
  if (type_ == Type::Number) return number_ != 0;
  if (type_ != Type::Bool) throw std::invalid_argument("JSON value is not a boolean");
  return bool_;
}
const std::string& Json::string() const {
  if (type_ != Type::String) throw std::invalid_argument("JSON value is not a string");
  return string_;
}
const std::vector<Json>& Json::array() const {
  if (type_ != Type::Array) throw std::invalid_argument("JSON value is not an array");
  return array_;
}
size_t Json::size() const {
  return type_ == Type::Array ? array_.size() : object_.size();
}
const Json& Json::operator[](size_t i) const {
  if (type_ != Type::Array || i >= array_.size())
    throw std::invalid_argument("JSON array index out of range");
  return array_[i];
}
const Json& Json::operator[](std::string_view key) const {
  if (type_ != Type::Object) return null_json();
  for (const auto& [k, v] : object_)
    if (k == key) return v;
  return null_json();
}
bool Json::has(std::string_view key) const {
  if (type_ != Type::Object) return false;
  for (const auto& kv : object_)
    if (kv.first == key) return true;
  return false;
}
const std::vector<std::pair<std::string, Json>>& Json::members() const {
  return object_;
}
int64_t Json::get_int(std::string_view key, int64_t fallback) const {
  const Json& v = (*this)[key];
  return v.is_null() ? fallback : v.integer();
}
std::string Json::get_string(std::string_view key, std::string fallback) const {
  const Json& v = (*this)[key];
  return v.is_string() ? v.string_ : fallback;
}
std::vector<int64_t> Json::int_list() const {
  std::vector<int64_t> out;
  for (const auto& v : array()) out.push_back(v.integer());
  return out;
}

void append_escaped(std::string& out, std::string_view s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  out += '"';
}

void JsonWriter::comma() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_ += ',';
    first_.back() = false;
  }
}
JsonWriter& JsonWriter::begin_object() {
  comma();
  out_ += '{';
  first_.push_back(true);
  return *this;
}
JsonWriter& JsonWriter::end_object() {
  out_ += '}';
  first_.pop_back();
  return *this;
}
JsonWriter& JsonWriter::begin_array() {
  comma();
  out_ += '[';
  first_.push_back(true);
  return *this;
}
JsonWriter& JsonWriter::end_array() {
  out_ += ']';
  first_.pop_back();
  return *this;
}
JsonWriter& JsonWriter::key(std::string_view k) {
  comma();
  append_escaped(out_, k);
  out_ += ':';
  after_key_ = true;
  return *this;
}
JsonWriter& JsonWriter::value(std::string_view s) {
  comma();
  append_escaped(out_, s);
  return *this;
}
JsonWriter& JsonWriter::value(int64_t n) {
  comma();
  out_ += std::to_string(n);
  return *this;
}
JsonWriter& JsonWriter::value(double d) {
  comma();
  // JSON has no NaN or infinities: they are written as the strings "NaN", "Infinity" and
  // "-Infinity" (JS's JSON.parse rejects the bare literals); number() reads them back.
  if (std::isnan(d)) {
    out_ += "\"NaN\"";
  } else if (std::isinf(d)) {
    out_ += d > 0 ? "\"Infinity\"" : "\"-Infinity\"";
  } else if (std::floor(d) == d && std::fabs(d) < 1e15) {
    out_ += std::to_string(static_cast<int64_t>(d));
  } else {
    // Shortest form that reads back to the same double.
    char buf[32];
    for (int prec = 6; prec <= 17; ++prec) {
      std::snprintf(buf, sizeof buf, "%.*g", prec, d);
      if (std::strtod(buf, nullptr) == d) break;
    }
    out_ += buf;
  }
  return *this;
}
JsonWriter& JsonWriter::value(bool b) {
  comma();
  out_ += b ? "true" : "false";
  return *this;
}
JsonWriter& JsonWriter::null() {
  comma();
  out_ += "null";
  return *this;
}
JsonWriter& JsonWriter::key_less_raw(std::string_view json) {
  comma();
  out_ += json;
  return *this;
}

JsonWriter& JsonWriter::int_list(const std::vector<int64_t>& v) {
  begin_array();
  for (int64_t x : v) value(x);
  return end_array();
}

} // namespace nki::util
