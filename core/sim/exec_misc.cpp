// Random numbers (random_seed, rand, dropout: one seeded generator per run, drawn in program
// order and row-major within a tile, so a seed reproduces a run), nl.device_print, and the
// Vector engine's 8-wide searches (max8, nc_find_index8, nc_match_replace8) and GpSimd's
// sequence_bounds.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "sim/exec.h"
#include "sim/exec_util.h"

namespace nki::sim {

using namespace nki::ir;

namespace {

uint64_t splitmix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A uniform draw in [0, 1) with 24 random bits (exact in fp32).
inline float uniform(uint64_t& state) {
  state = splitmix(state);
  return static_cast<float>(state >> 40) * (1.0f / 16777216.0f);
}

void exec_random_seed(Exec& ex, const Instruction& in) {
  const Operand& s = ex.need(in, "seed");
  uint64_t seed = 0;
  if (s.is_scalar) {
    seed = static_cast<uint64_t>(static_cast<int64_t>(s.scalar));
  } else {
    Domain dom(s.ap.tile_shape, in.mask, ex.env);
    View v = ex.view(s, dom);
    int64_t vals[kChunk];
    dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
      for (int64_t c = 0; c < n; c += kChunk) {
        int64_t m = std::min(kChunk, n - c);
        read_i64(v, pos, lo + c, m, vals, ex);
        for (int64_t i = 0; i < m; ++i) seed = splitmix(seed ^ static_cast<uint64_t>(vals[i]));
      }
    });
  }
  ex.rng = splitmix(seed);
}

void exec_rand(Exec& ex, const Instruction& in) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View out = ex.output(in, dom);
  float v[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      for (int64_t i = 0; i < m; ++i) v[i] = uniform(ex.rng);
      write_f32(out, pos, lo + c, m, v);
    }
  });
}

// Each element is zeroed with probability `prob` (a scalar or a (P, 1) column); kept
// elements are unscaled.
void exec_dropout(Exec& ex, const Instruction& in) {
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  View data = ex.view(ex.need(in, "data"), dom);
  Source prob = ex.source(in, "prob", dom);
  View out = ex.output(in, dom);
  float v[kChunk], p[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      read_f32(data, pos, lo + c, m, v, ex);
      ex.read(prob, pos, lo + c, m, p);
      for (int64_t i = 0; i < m; ++i)
        if (uniform(ex.rng) < p[i]) v[i] = 0.0f;
      write_f32(out, pos, lo + c, m, v);
    }
  });
}

// XORWOW (Marsaglia): words x0..x4 and a counter; a draw shifts x, adds the counter.
uint32_t xorwow_next(uint32_t* w) {
  uint32_t t = w[4];
  const uint32_t s = w[0];
  w[4] = w[3];
  w[3] = w[2];
  w[2] = w[1];
  w[1] = s;
  t ^= t >> 2;
  t ^= t << 1;
  t ^= s ^ (s << 4);
  w[0] = t;
  w[5] += 362437;
  return t + w[5];
}

int xorwow_engine(const Instruction& in) {
  return in.engine == Engine::GpSimd ? 0 : 1;
}

// rng: per partition, its elements in order draw from the lane's generator (Vector: element i
// from generator i % 4); a narrower integer keeps the low bits.
void exec_rng(Exec& ex, const Instruction& in) {
  const Operand& o = ex.need(in, "dst");
  Tile2D t = read_shape(o);
  const int e = xorwow_engine(in);
  const int gens = e == 0 ? 1 : 4;
  const DType dt = ex.k.tensor(o.ap.tensor).dtype;
  const int bits = 8 * elem_size(dt);
  const bool is_signed = dt == DType::Int8 || dt == DType::Int16 || dt == DType::Int32;
  for (int64_t p = 0; p < t.parts && p < 128; ++p)
    for (int64_t f = 0; f < t.free; ++f) {
      uint64_t r = xorwow_next(&ex.xorwow[e][p][6 * (f % gens)]);
      if (bits < 32) r &= (uint64_t{1} << bits) - 1;
      int64_t v = static_cast<int64_t>(r);
      if (is_signed && (r >> (bits - 1)) & 1) v -= int64_t{1} << bits;
      t.at(p, f) = static_cast<double>(v);
    }
  write_tile(ex, o, t);
}

void exec_rand_set_state(Exec& ex, const Instruction& in) {
  const Tile2D t = read_tile(ex, ex.need(in, "src_seeds"));
  const int e = xorwow_engine(in);
  for (int64_t p = 0; p < t.parts && p < 128; ++p)
    for (int64_t f = 0; f < t.free && f < 24; ++f)
      ex.xorwow[e][p][f] = static_cast<uint32_t>(static_cast<int64_t>(t.at(p, f)));
}

void exec_rand_get_state(Exec& ex, const Instruction& in) {
  const Operand& o = ex.need(in, "dst");
  Tile2D t = read_shape(o);
  const int e = xorwow_engine(in);
  for (int64_t p = 0; p < t.parts && p < 128; ++p)
    for (int64_t f = 0; f < t.free && f < 24; ++f) t.at(p, f) = ex.xorwow[e][p][f];
  write_tile(ex, o, t);
}

// core_barrier / sendrecv run where the two cores meet (Interpreter::run_cores_together).
void exec_meeting(Exec&, const Instruction& in) {
  throw sema::InternalError(in.opcode + " executed outside the cores' meeting");
}

void exec_device_print(Exec& ex, const Instruction& in) {
  const Operand& x = ex.need(in, "x");
  Domain dom(x.ap.tile_shape, in.mask, ex.env);
  View v = ex.view(x, dom);
  PrintRecord rec;
  rec.prefix = ex.attr_str(in, "prefix");
  rec.shape = x.ap.tile_shape;
  rec.dtype = v.dtype;
  rec.loc = in.loc;
  rec.instance = ex.env.pid;
  int64_t count = 1;
  for (int64_t s : rec.shape) count *= s;
  if (ex.log.prints.size() >= RunLog::kMaxPrints ||
      ex.log.print_values + static_cast<size_t>(count) > RunLog::kMaxPrintValues) {
    ++ex.log.prints_dropped;
    return;
  }
  ex.log.print_values += static_cast<size_t>(count);
  rec.values.assign(static_cast<size_t>(count), std::numeric_limits<double>::quiet_NaN());
  const int r = dom.rank();
  float buf[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t flat = 0;
    for (int k = 0; k < r - 1; ++k) flat = flat * dom.extent(k) + pos[k];
    flat = flat * dom.extent(r - 1) + lo;
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      if (dtype_is_float(v.dtype)) {
        read_f32(v, pos, lo + c, m, buf, ex);
        for (int64_t i = 0; i < m; ++i) rec.values[static_cast<size_t>(flat + c + i)] = buf[i];
      } else {
        int64_t iv[kChunk];
        read_i64(v, pos, lo + c, m, iv, ex);
        for (int64_t i = 0; i < m; ++i)
          rec.values[static_cast<size_t>(flat + c + i)] = static_cast<double>(iv[i]);
      }
    }
  });
  ex.log.prints.push_back(std::move(rec));
}

// The rows of operand `role` (one vector per partition, free axes flattened).
std::vector<std::vector<float>> rows_of(Exec& ex, const Instruction& in, const char* role) {
  const Operand& o = ex.need(in, role);
  Domain dom(o.ap.tile_shape, {}, ex.env);
  View v = ex.view(o, dom);
  std::vector<std::vector<float>> rows(static_cast<size_t>(dom.extent(0)));
  float buf[kChunk];
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    for (int64_t c = 0; c < n; c += kChunk) {
      int64_t m = std::min(kChunk, n - c);
      read_f32(v, pos, lo + c, m, buf, ex);
      auto& row = rows[static_cast<size_t>(dom.rank() > 1 ? pos[0] : 0)];
      row.insert(row.end(), buf, buf + m);
    }
  });
  return rows;
}

// Writes rows (one per partition, flattened free axes) into `view` over `dom`.
void write_rows(const Domain& dom, const View& out, const std::vector<std::vector<float>>& rows) {
  const int r = dom.rank();
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t flat = 0;
    for (int k = 1; k < r - 1; ++k) flat = flat * dom.extent(k) + pos[k];
    flat = r > 1 ? flat * dom.extent(r - 1) + lo : lo;
    const auto& row = rows[static_cast<size_t>(r > 1 ? pos[0] : 0)];
    for (int64_t i = 0; i < n; ++i)
      if (flat + i < static_cast<int64_t>(row.size()))
        write_f32(out, pos, lo + i, 1, &row[static_cast<size_t>(flat + i)]);
  });
}

// The search instructions' mask selects elements of their input (`data` / `src`): rows of it
// with, per element, whether the mask selects it. A partition with none selected is not
// computed (its outputs are not written).
struct MaskedRows {
  std::vector<std::vector<float>> rows;
  std::vector<std::vector<char>> selected;
  bool any(size_t p) const {
    return std::find(selected[p].begin(), selected[p].end(), 1) != selected[p].end();
  }
};

MaskedRows masked_rows(Exec& ex, const Instruction& in, const char* role) {
  MaskedRows m;
  m.rows = rows_of(ex, in, role);
  const Operand& o = ex.need(in, role);
  for (const auto& row : m.rows) m.selected.emplace_back(row.size(), in.mask.empty() ? 1 : 0);
  if (in.mask.empty()) return m;
  Domain dom(o.ap.tile_shape, in.mask, ex.env);
  const int r = dom.rank();
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    int64_t flat = 0;
    for (int k = 1; k < r - 1; ++k) flat = flat * dom.extent(k) + pos[k];
    flat = r > 1 ? flat * dom.extent(r - 1) + lo : 0;
    auto& sel = m.selected[static_cast<size_t>(r > 1 ? pos[0] : 0)];
    for (int64_t i = 0; i < n; ++i) sel[static_cast<size_t>(flat + i)] = 1;
  });
  return m;
}

// Writes the rows of the partitions in which `from` selected something.
void write_rows_of(const Domain& dom, const View& out, const std::vector<std::vector<float>>& rows,
                   const MaskedRows& from) {
  const int r = dom.rank();
  dom.for_each_run([&](const int64_t* pos, int64_t lo, int64_t n) {
    size_t p = static_cast<size_t>(r > 1 ? pos[0] : lo);
    if (!from.any(p)) return;
    int64_t flat = 0;
    for (int k = 1; k < r - 1; ++k) flat = flat * dom.extent(k) + pos[k];
    flat = r > 1 ? flat * dom.extent(r - 1) + lo : lo;
    const auto& row = rows[p];
    for (int64_t i = 0; i < n; ++i)
      if (flat + i < static_cast<int64_t>(row.size()))
        write_f32(out, pos, lo + i, 1, &row[static_cast<size_t>(flat + i)]);
  });
}

void exec_max8(Exec& ex, const Instruction& in) {
  MaskedRows src = masked_rows(ex, in, "src");
  std::vector<std::vector<float>> top(src.rows.size());
  for (size_t p = 0; p < src.rows.size(); ++p) {
    for (size_t i = 0; i < src.rows[p].size(); ++i)
      if (src.selected[p][i]) top[p].push_back(src.rows[p][i]);
    std::partial_sort(top[p].begin(), top[p].begin() + std::min<size_t>(8, top[p].size()),
                      top[p].end(), [](float a, float b) { return a > b; });
    top[p].resize(std::min<size_t>(8, top[p].size()));
  }
  Domain dom(ex.out_shape(in), {}, ex.env);
  write_rows_of(dom, ex.output(in, dom, false), top, src);
}

// Index in `data`'s row of the first selected occurrence of each of `vals`, -1 when absent;
// `replace` overwrites each found element with `imm`.
std::vector<std::vector<float>> find8(MaskedRows& data, const std::vector<std::vector<float>>& vals,
                                      bool replace, float imm) {
  std::vector<std::vector<float>> idx(data.rows.size());
  for (size_t p = 0; p < data.rows.size(); ++p) {
    if (!data.any(p)) continue;
    auto& row = data.rows[p];
    for (float v : vals[p]) {
      size_t i = 0;
      while (i < row.size() && !(data.selected[p][i] && row[i] == v)) ++i;
      idx[p].push_back(i == row.size() ? -1.0f : static_cast<float>(i));
      if (replace && i != row.size()) row[i] = imm;
    }
  }
  return idx;
}

void exec_find_index8(Exec& ex, const Instruction& in) {
  MaskedRows data = masked_rows(ex, in, "data");
  auto idx = find8(data, rows_of(ex, in, "vals"), false, 0.0f);
  Domain dom(ex.out_shape(in), {}, ex.env);
  write_rows_of(dom, ex.output(in, dom, false), idx, data);
}

void exec_match_replace8(Exec& ex, const Instruction& in) {
  MaskedRows data = masked_rows(ex, in, "data");
  float imm = static_cast<float>(ex.need(in, "imm").scalar);
  auto idx = find8(data, rows_of(ex, in, "vals"), true, imm);
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  write_rows(dom, ex.output(in, dom), data.rows);
  if (const Operand* d = ex.find(in, "dst_idx")) {
    Domain idom(d->ap.tile_shape, {}, ex.env);
    write_rows_of(idom, ex.view(*d, idom), idx, data);
  }
}

// For each element, the start and end (exclusive) of the run of equal segment ids it is in.
void exec_sequence_bounds(Exec& ex, const Instruction& in) {
  auto ids = rows_of(ex, in, "segment_ids");
  const std::vector<float>& s = ids.at(0);
  const size_t n = s.size();
  std::vector<std::vector<float>> out(1, std::vector<float>(2 * n));
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && s[j] == s[i]) ++j;
    for (size_t k = i; k < j; ++k) { // id 0 is padding: [N, -1)
      out[0][k] = s[i] == 0.0f ? static_cast<float>(n) : static_cast<float>(i);
      out[0][n + k] = s[i] == 0.0f ? -1.0f : static_cast<float>(j);
    }
    i = j;
  }
  Domain dom(ex.out_shape(in), in.mask, ex.env);
  write_rows(dom, ex.output(in, dom), out);
}

} // namespace

void seed_xorwow(Exec& ex) {
  // A fixed state per lane until rand_set_state (the hardware's is whatever was left): the
  // same for every run and instance, so computed once (6144 splitmix steps took ~60 µs, paid by
  // every run) and copied.
  struct Seeded {
    uint32_t w[2][128][24];
    Seeded() {
      for (int e = 0; e < 2; ++e)
        for (uint32_t p = 0; p < 128; ++p) {
          uint64_t s = 0x5eedull * (e + 1) + p;
          for (int i = 0; i < 24; ++i) {
            s = splitmix(s);
            w[e][p][i] = static_cast<uint32_t>(s >> 32) | (i % 6 == 5 ? 0u : 1u);
          }
        }
    }
  };
  static const Seeded seeded;
  static_assert(sizeof(seeded.w) == sizeof(ex.xorwow), "two engines, 128 lanes, 24 words");
  std::memcpy(ex.xorwow, seeded.w, sizeof(ex.xorwow));
}

void register_misc_execs(ExecTable& t) {
  t.add("random_seed", exec_random_seed);
  t.add("rand", exec_rand);
  t.add("rng", exec_rng);
  t.add("core_barrier", exec_meeting);
  t.add("sendrecv", exec_meeting);
  t.add("rand_set_state", exec_rand_set_state);
  t.add("rand_get_state", exec_rand_get_state);
  t.add("dropout", exec_dropout);
  t.add("device_print", exec_device_print);
  t.add("max8", exec_max8);
  t.add("nc_find_index8", exec_find_index8);
  t.add("nc_match_replace8", exec_match_replace8);
  t.add("sequence_bounds", exec_sequence_bounds);
}

} // namespace nki::sim
