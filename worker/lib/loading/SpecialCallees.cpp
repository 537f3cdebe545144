#include "loading/SpecialCallees.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Intrinsics.h>

#include <string>
#include <unordered_map>

namespace cairn::engine {

namespace {

const std::unordered_map<std::string, Special> &specialsByName() {
  static const std::unordered_map<std::string, Special> table = {
      {"klee_make_symbolic", Special::MakeSymbolic},
      {"klee_assume", Special::Assume},
      {"klee_abort", Special::Abort},
      {"klee_silent_exit", Special::SilentExit},
      {"klee_report_error", Special::ReportError},
      {"klee_is_symbolic", Special::IsSymbolic},
      {"klee_get_value_i32", Special::GetValue},
      {"klee_get_value_i64", Special::GetValue},
      {"klee_get_valuel", Special::GetValue},
      {"klee_prefer_cex", Special::Ignored},
      {"klee_warning", Special::Warning},
      {"klee_warning_once", Special::WarningOnce},
      {"klee_print_expr", Special::PrintExpr},
      {"klee_is_replay", Special::IsReplay},
      {"klee_open_merge", Special::OpenMerge},
      {"klee_close_merge", Special::CloseMerge},
      {"malloc", Special::Malloc},
      {"calloc", Special::Calloc},
      {"realloc", Special::Realloc},
      {"free", Special::Free},
      {"printf", Special::Printf},
      {"puts", Special::Puts},
      {"putchar", Special::Putchar},
      {"fprintf", Special::Fprintf},
      {"sprintf", Special::Sprintf},
      {"snprintf", Special::Snprintf},
      {"fputs", Special::Fputs},
      {"fputc", Special::Fputc},
      {"putc", Special::Fputc},
      {"fflush", Special::Fflush},
      {"exit", Special::Exit},
      {"_exit", Special::Exit},
      {"_Exit", Special::Exit},
      {"cairn_environment_options", Special::EnvironmentOptions},
      {"cairn_write_output", Special::WriteOutput},
      {"cairn_mapped_file", Special::MappedFile},
      {"abort", Special::Abort},
      {"klee_set_forking", Special::SetForking},
      {"klee_alias_function", Special::AliasFunction},
      {"klee_stack_trace", Special::StackTrace},
      {"klee_check_memory_access", Special::CheckMemoryAccess},
      {"klee_define_fixed_object", Special::DefineFixedObject},
      {"klee_get_obj_size", Special::GetObjSize},
      {"klee_print_range", Special::PrintRange},
      {"klee_mark_global", Special::Ignored},
      {"klee_posix_prefer_cex", Special::Ignored},
      {"cairn_aligned_malloc", Special::AlignedMalloc},
      {"__printf_chk", Special::PrintfChk},
      {"__fprintf_chk", Special::FprintfChk},
      {"__sprintf_chk", Special::SprintfChk},
      {"__snprintf_chk", Special::SnprintfChk},
  };
  return table;
}

} // namespace

std::optional<Special> intrinsicSpecial(const llvm::Function &intrinsic) {
  using namespace llvm;
  switch (intrinsic.getIntrinsicID()) {
  case Intrinsic::memcpy:
  case Intrinsic::memcpy_inline: return Special::Memcpy;
  case Intrinsic::memmove: return Special::Memmove;
  case Intrinsic::memset:
  case Intrinsic::memset_inline: return Special::Memset;
  case Intrinsic::dbg_declare:
  case Intrinsic::dbg_value:
  case Intrinsic::dbg_label:
  case Intrinsic::lifetime_start:
  case Intrinsic::lifetime_end:
  case Intrinsic::stacksave:
  case Intrinsic::stackrestore:
  case Intrinsic::assume:
  case Intrinsic::experimental_noalias_scope_decl:
  case Intrinsic::invariant_start:
  case Intrinsic::invariant_end: return Special::Ignored;
  case Intrinsic::expect:
  case Intrinsic::expect_with_probability: return Special::Identity;
  case Intrinsic::ctpop: return Special::Ctpop;
  case Intrinsic::ctlz: return Special::Ctlz;
  case Intrinsic::cttz: return Special::Cttz;
  case Intrinsic::bswap: return Special::Bswap;
  case Intrinsic::fshl: return Special::Fshl;
  case Intrinsic::fshr: return Special::Fshr;
  case Intrinsic::abs: return Special::Abs;
  case Intrinsic::smin: return Special::Smin;
  case Intrinsic::smax: return Special::Smax;
  case Intrinsic::umin: return Special::Umin;
  case Intrinsic::umax: return Special::Umax;
  case Intrinsic::sadd_with_overflow: return Special::SAddO;
  case Intrinsic::uadd_with_overflow: return Special::UAddO;
  case Intrinsic::ssub_with_overflow: return Special::SSubO;
  case Intrinsic::usub_with_overflow: return Special::USubO;
  case Intrinsic::smul_with_overflow: return Special::SMulO;
  case Intrinsic::umul_with_overflow: return Special::UMulO;
  case Intrinsic::uadd_sat: return Special::UAddSat;
  case Intrinsic::usub_sat: return Special::USubSat;
  case Intrinsic::sadd_sat: return Special::SAddSat;
  case Intrinsic::ssub_sat: return Special::SSubSat;
  case Intrinsic::trap:
  case Intrinsic::ubsantrap: return Special::Abort; // as KLEE lowers llvm.trap
  case Intrinsic::vastart: return Special::VaStart;
  case Intrinsic::load_relative: return Special::LoadRelative;
  case Intrinsic::vaend: return Special::VaEnd;
  case Intrinsic::vacopy: return Special::VaCopy;
  default: return std::nullopt;
  }
}

std::optional<Special> declaredSpecial(const llvm::Function &callee) {
  if (!callee.isDeclaration())
    return std::nullopt;
  auto it = specialsByName().find(callee.getName().str());
  if (it == specialsByName().end())
    return std::nullopt;
  return it->second;
}

NativeString nativeString(const std::string &name, bool isRuntime) {
  static const std::unordered_map<std::string, NativeString> table = {
      {"memcpy", NativeString::Memcpy},   {"memmove", NativeString::Memmove}, {"memset", NativeString::Memset},
      {"memcmp", NativeString::Memcmp},   {"bcmp", NativeString::Bcmp},       {"memchr", NativeString::Memchr},
      {"strlen", NativeString::Strlen},   {"strnlen", NativeString::Strnlen}, {"strcmp", NativeString::Strcmp},
      {"strncmp", NativeString::Strncmp}, {"strchr", NativeString::Strchr},   {"strchrnul", NativeString::Strchrnul},
      {"strrchr", NativeString::Strrchr}, {"strcpy", NativeString::Strcpy},   {"stpcpy", NativeString::Stpcpy},
  };
  if (!isRuntime)
    return NativeString::None;
  auto it = table.find(name);
  return it == table.end() ? NativeString::None : it->second;
}

} // namespace cairn::engine
