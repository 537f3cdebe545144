; CAIRN-ARGS: --search dfs
; EXPECT: paths_completed=2 paths_partial=0 tests=2
; EXPECT-ERROR: model unsupported-constant 30
;
; A global whose initial value is a constant the engine cannot compute (a vector of pointers,
; from a getelementptr with a vector of indices) does not refuse the program: it is left out
; of memory, the path that reads it ends with a model error naming it and why, and the path
; that does not read it goes on. Two paths, one error (at the load, line 30 of the debug info).
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@bytes = global [4 x i8] zeroinitializer
@pair = global <2 x ptr> getelementptr (i8, ptr @bytes, <2 x i64> <i64 1, i64 2>)
@.name = private unnamed_addr constant [2 x i8] c"x\00"

declare void @klee_make_symbolic(ptr, i64, ptr)

define i32 @main() !dbg !5 {
entry:
  %x = alloca i32, align 4
  call void @klee_make_symbolic(ptr %x, i64 4, ptr @.name), !dbg !8
  %v = load i32, ptr %x, align 4, !dbg !8
  %positive = icmp sgt i32 %v, 0, !dbg !8
  br i1 %positive, label %touch, label %other, !dbg !8

touch:
  %p = load <2 x ptr>, ptr @pair, align 16, !dbg !9
  ret i32 1, !dbg !9

other:
  ret i32 0, !dbg !10
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}

!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: "written by hand", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "global_unsupported_constant.ll", directory: "/cairn-corpus")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "main", scope: !1, file: !1, line: 20, type: !6, scopeLine: 20, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}
!8 = !DILocation(line: 22, column: 3, scope: !5)
!9 = !DILocation(line: 30, column: 3, scope: !5)
!10 = !DILocation(line: 33, column: 3, scope: !5)
