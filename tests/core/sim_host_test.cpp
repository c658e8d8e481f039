// Host arrays (the numpy fallback's core-backed storage): NumPy's seeded random streams,
// broadcasting ufuncs with NumPy casts, reductions and matmul.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "host/host.h"
#include "util/json.h"

using namespace nki;

namespace {

int id_of(const std::string& reply) {
  return static_cast<int>(nki::util::Json::parse(reply)["id"].integer());
}

template <typename T> std::vector<T> values(int id) {
  std::vector<T> v(static_cast<size_t>(host::nbytes(id) / sizeof(T)));
  std::memcpy(v.data(), host::data(id), v.size() * sizeof(T));
  return v;
}

template <typename T> int array_of(const std::string& dtype, const std::vector<T>& v) {
  int id = id_of(host::request(R"({"op":"new","dtype":")" + dtype + R"(","n":)" +
                               std::to_string(v.size()) + "}"));
  std::memcpy(host::data(id), v.data(), v.size() * sizeof(T));
  return id;
}

std::string view(int id, const std::string& shape, const std::string& strides, int off = 0) {
  return R"({"id":)" + std::to_string(id) + R"(,"off":)" + std::to_string(off) + R"(,"shape":)" +
         shape + R"(,"strides":)" + strides + "}";
}

void free_all(std::initializer_list<int> ids) {
  for (int id : ids) host::request(R"({"op":"free","id":)" + std::to_string(id) + "}");
}

} // namespace

TEST(SimHost, seeded_random_streams_match_numpy_legacy_random_state) {
  int64_t live = host::live_arrays();
  host::request(R"({"op":"seed","seed":0})");
  int u = id_of(host::request(R"({"op":"random","kind":"uniform","n":3})"));
  EXPECT_EQ(values<double>(u),
            (std::vector<double>{0.5488135039273248, 0.7151893663724195, 0.6027633760716439}));
  host::request(R"({"op":"seed","seed":0})");
  int g = id_of(host::request(R"({"op":"random","kind":"normal","n":3})"));
  EXPECT_EQ(values<double>(g),
            (std::vector<double>{1.764052345967664, 0.4001572083672233, 0.9787379841057392}));
  host::request(R"({"op":"seed","seed":123})");
  free_all({id_of(host::request(R"({"op":"random","kind":"uniform","n":5})"))});
  int g2 = id_of(host::request(R"({"op":"random","kind":"normal","n":2})"));
  EXPECT_EQ(values<double>(g2), (std::vector<double>{0.32210606833962163, -0.0515177209393851}));
  free_all({u, g, g2});
  EXPECT_EQ(host::live_arrays(), live);
}

TEST(SimHost, ufuncs_broadcast_and_cast_like_numpy) {
  int a = array_of<float>("float32", {1.5f, -2.0f, 3.0f, 0.25f, 8.0f, -1.0f}); // (2, 3)
  int b = array_of<float>("float32", {10.0f, 20.0f, 30.0f});                   // (3,)
  int s = id_of(host::request(
      R"({"op":"ufunc","name":"add","lp":"float32","od":"float32","shape":[2,3],"inputs":[)" +
      view(a, "[2,3]", "[3,1]") + "," + view(b, "[3]", "[1]") + "]}"));
  EXPECT_EQ(values<float>(s), (std::vector<float>{11.5f, 18.0f, 33.0f, 10.25f, 28.0f, 29.0f}));
  // A transposed view, a weak scalar, a comparison to bool.
  int c = id_of(host::request(
      R"({"op":"ufunc","name":"greater","lp":"float32","od":"bool","shape":[3,2],"inputs":[)" +
      view(a, "[3,2]", "[1,3]") + R"(,{"s":1.0}]})"));
  EXPECT_EQ(values<uint8_t>(c), (std::vector<uint8_t>{1, 0, 0, 1, 1, 0}));
  int i8 = array_of<int8_t>("int8", {100, -100, 127});
  int w = id_of(
      host::request(R"({"op":"ufunc","name":"add","lp":"int8","od":"int8","shape":[3],"inputs":[)" +
                    view(i8, "[3]", "[1]") + "," + view(i8, "[3]", "[1]") + "]}"));
  EXPECT_EQ(values<int8_t>(w), (std::vector<int8_t>{-56, 56, -2})); // wraps
  int fd = id_of(host::request(
      R"({"op":"ufunc","name":"floor_divide","lp":"float64","od":"float64","shape":[2],"inputs":[{"s":-7.0},)" +
      view(array_of<double>("float64", {2.0, -0.5}), "[2]", "[1]") + "]}"));
  EXPECT_EQ(values<double>(fd), (std::vector<double>{-4.0, 14.0}));
  free_all({a, b, s, c, i8, w, fd});
}

TEST(SimHost, reductions_and_matmul) {
  std::vector<float> x(6 * 4);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.5f;
  int a = array_of<float>("float32", x); // (6, 4)
  int s = id_of(host::request(
      R"({"op":"reduce","name":"add","lp":"float32","od":"float32","axes":[1],"initial":null,"in":)" +
      view(a, "[6,4]", "[4,1]") + "}"));
  EXPECT_EQ(values<float>(s), (std::vector<float>{3.0f, 11.0f, 19.0f, 27.0f, 35.0f, 43.0f}));
  int m = id_of(host::request(
      R"({"op":"reduce","name":"maximum","lp":"float32","od":"float32","axes":[0],"initial":null,"in":)" +
      view(a, "[6,4]", "[4,1]") + "}"));
  EXPECT_EQ(values<float>(m), (std::vector<float>{10.0f, 10.5f, 11.0f, 11.5f}));
  int b = array_of<float>("float32", {1, 0, 0, 1, 1, 1, 2, 0}); // (4, 2)
  int p = id_of(host::request(R"({"op":"matmul","lp":"float32","od":"float32","a":)" +
                              view(a, "[6,4]", "[4,1]") + R"(,"b":)" + view(b, "[4,2]", "[2,1]") +
                              "}"));
  std::vector<float> want;
  for (int r = 0; r < 6; ++r) {
    float c0 = 0, c1 = 0;
    float bv[8] = {1, 0, 0, 1, 1, 1, 2, 0};
    for (int k = 0; k < 4; ++k) c0 += x[r * 4 + k] * bv[k * 2], c1 += x[r * 4 + k] * bv[k * 2 + 1];
    want.push_back(c0), want.push_back(c1);
  }
  EXPECT_EQ(values<float>(p), want);
  free_all({a, s, m, b, p});
}

TEST(SimHost, element_get_and_set_cast_like_numpy) {
  int f = array_of<float>("float32", {1.5f, -2.0f, 0.25f});
  int i = array_of<int8_t>("int8", {1, -2, 3});
  int b = array_of<uint8_t>("bool", {0, 1, 0});
  EXPECT_EQ(host::get(f, 2), 0.25);
  EXPECT_EQ(host::get(i, 1), -2.0);
  EXPECT_EQ(host::get(b, 1), 1.0);
  host::set(f, 0, 1.0 / 3.0); // rounded to float32
  host::set(i, 2, -7.0);
  host::set(b, 0, 2.0); // any nonzero is True
  EXPECT_EQ(values<float>(f)[0], 1.0f / 3.0f);
  EXPECT_EQ(values<int8_t>(i)[2], -7);
  EXPECT_EQ(values<uint8_t>(b)[0], 1);
  EXPECT_ANY_THROW(host::get(f, 3));
  EXPECT_ANY_THROW(host::set(f, -1, 0.0));
  free_all({f, i, b});
}
