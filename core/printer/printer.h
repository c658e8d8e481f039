#pragma once
/// The one IR printer. It walks a Kernel and emits lines into a sink; the text sink and the
/// record sink receive the same lines, so joining the records' text gives the text exactly.
#include <string>
#include <vector>

#include "ir/ir.h"

namespace nki::printer {

/// One printed line with what it belongs to (for linking source ↔ IR ↔ regions).
struct LineRecord {
  std::string text;   ///< the line, indentation included, no newline
  int depth = 0;      ///< nesting depth (indentation level)
  int op_id = -1;     ///< instruction printed on this line, or -1
  int region_id = -1; ///< region this line opens/closes, or the region an instruction is in
  ir::SourceLoc loc;  ///< source location of the instruction or region, if known
};

class Sink {
public:
  virtual ~Sink() = default;
  virtual void line(LineRecord rec) = 0;
};

/// Collects "line\n" for every line.
class TextSink : public Sink {
public:
  void line(LineRecord rec) override;
  const std::string& text() const { return text_; }

private:
  std::string text_;
};

class RecordSink : public Sink {
public:
  void line(LineRecord rec) override { records_.push_back(std::move(rec)); }
  const std::vector<LineRecord>& records() const { return records_; }

private:
  std::vector<LineRecord> records_;
};

/// Prints `k` into `sink`.
void print_kernel(const ir::Kernel& k, Sink& sink);
/// Convenience: the plain text form.
std::string to_text(const ir::Kernel& k);
/// The text form of printed records: each record's text and a newline (what TextSink holds).
std::string records_to_text(const std::vector<LineRecord>& records);
/// The records as a JSON array of {text, depth, op_id, region_id, loc}.
std::string records_to_json(const std::vector<LineRecord>& records);
/// The versioned JSON exchange form of the whole kernel (docs/ir-format.md).
std::string to_json(const ir::Kernel& k);

/// Printing helpers shared with diagnostics.
std::string format_expr(const ir::Kernel& k, const ir::AffineExpr& e, size_t tile_rank);
std::string format_access(const ir::Kernel& k, const ir::AccessPattern& ap);
std::string format_type(const ir::Tensor& t);
std::string format_predicate(const ir::Kernel& k, const ir::Predicate& p, size_t tile_rank);

constexpr int kIrJsonVersion = 1;

} // namespace nki::printer
