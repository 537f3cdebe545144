; CAIRN-ARGS: --search dfs
; EXPECT: paths_completed=3 paths_partial=0 tests=3
;
; IR as front ends before LLVM 15 wrote it, with typed pointers (i8*, i32*, bitcasts, typed
; GEPs): the loader upgrades it to opaque pointers, as the runtime's bitcode has, and links the
; two. A struct field made symbolic decides two branches; memset and strlen are the runtime's
; (called through their typed declarations). Three paths: x <= 10, x == 11, x > 11.
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.pair = type { i32, [8 x i8] }

@.name = private unnamed_addr constant [2 x i8] c"p\00"

declare void @klee_make_symbolic(i8*, i64, i8*)
declare i8* @memset(i8*, i32, i64)
declare i64 @strlen(i8*)
declare void @abort()

define i32 @main() {
entry:
  %p = alloca %struct.pair, align 4
  %raw = bitcast %struct.pair* %p to i8*
  call void @klee_make_symbolic(i8* %raw, i64 12, i8* getelementptr inbounds ([2 x i8], [2 x i8]* @.name, i64 0, i64 0))
  %text = getelementptr inbounds %struct.pair, %struct.pair* %p, i32 0, i32 1, i64 0
  %filled = call i8* @memset(i8* %text, i32 97, i64 7)
  %last = getelementptr inbounds i8, i8* %text, i64 7
  store i8 0, i8* %last, align 1
  %len = call i64 @strlen(i8* %text)
  %seven = icmp eq i64 %len, 7
  br i1 %seven, label %check, label %wrong

check:
  %xp = getelementptr inbounds %struct.pair, %struct.pair* %p, i32 0, i32 0
  %x = load i32, i32* %xp, align 4
  %big = icmp sgt i32 %x, 10
  br i1 %big, label %bigger, label %small

bigger:
  %eleven = icmp eq i32 %x, 11
  br i1 %eleven, label %exactly, label %more

exactly:
  ret i32 11

more:
  ret i32 12

small:
  ret i32 0

wrong:
  call void @abort()
  unreachable
}
; CAIRN-VARIANT: full-libc --search dfs --libc full --all-tests
