; Indirect prefetch feedback: an "indirect" hint on an irregular load whose
; address is computed from one load of its loop at a constant step (a[b[i]],
; p[i]->v, a hash or a remainder of key[i], b[c[i]]) repeats that
; computation 16 iterations ahead: the index load's address moved ahead and
; clamped to the loop's last one (computed before the loop: b + 4(n-1)
; forwards, b backwards), the copies without their poison flags, then a
; prefetch, in a block run only when the loop has at least 32 iterations. Loads it cannot reach that way are left alone with the reason.
; RUN: %opt_at -passes=activetime-prefetch-use -activetime-prefetch-use=%S/Inputs/hints-indirect.json -activetime-print-decisions -S %s -o - 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=DECIDE < %t.err
; Without the printout: the same seven prefetches and no other.
; RUN: %opt_at -passes=activetime-prefetch-use -activetime-prefetch-use=%S/Inputs/hints-indirect.json -S %s -o - 2>/dev/null | FileCheck %s --check-prefix=COUNT
; COUNT-COUNT-7: call void @llvm.prefetch
; COUNT-NOT: call void @llvm.prefetch

; DECIDE: activetime: indirect prefetch in gather at (no debug location): through the index load at (no debug location) (step 4 bytes), 16 iterations ahead when the loop runs at least twice that, clamped to the loop's last index: the shortest profiled iteration took 12.5 ns, 16 of them cover the 200 ns miss latency (given to `activetime export` by --latency-ns)
; DECIDE: activetime: indirect prefetch in backward {{.*}} (step -4 bytes), 16 iterations ahead
; DECIDE: activetime: indirect prefetch in ptrs {{.*}} (step 8 bytes), 16 iterations ahead
; DECIDE: activetime: indirect prefetch in hashed {{.*}} (step 4 bytes)
; DECIDE: activetime: indirect prefetch in modulo {{.*}} (step 4 bytes)
; b[c[i]] is reached through c[i]; a[b[c[i]]] through b[c[i]], which does
; not walk memory at a constant step.
; DECIDE: activetime: indirect prefetch in twolevel {{.*}} (step 4 bytes)
; DECIDE: activetime: no indirect prefetch in twolevel at (no debug location): the index load does not walk memory at a constant step
; DECIDE: activetime: no indirect prefetch in early at (no debug location): the loop's trip count is not known when it starts
; DECIDE: activetime: no indirect prefetch in sentinel at (no debug location): the address depends on a phi of the loop (a pointer chase, or the induction variable itself)
; A hash join's probe: the bucket chain's first link, from the loop over the
; keys, where the chain's loop is entered; b->v and b->next share a line.
; DECIDE: activetime: indirect prefetch in probe at (no debug location): the first link of its chain, from the enclosing loop, through the index load at (no debug location) (step 4 bytes), 16 iterations ahead
; DECIDE: activetime: no indirect prefetch in probe at (no debug location): the line is prefetched already for another field
; A sparse matrix's rows: short, each its own trip count.
; DECIDE: activetime: no indirect prefetch in spmv at (no debug location): the loop's trip count changes with each iteration of the enclosing loop (short rows)

; CHECK-LABEL: define dso_local i64 @gather(
; CHECK: for.body.preheader:
; CHECK: [[LASTOFF:%.*]] = add nsw i64 {{%.*}}, -4
; CHECK-NEXT: [[LAST:%.*]] = getelementptr i8, ptr %idx, i64 [[LASTOFF]]
; CHECK-NEXT: [[BTC:%.*]] = add nsw i64 %wide.trip.count, -1
; CHECK-NEXT: %activetime.indirect.long = icmp uge i64 [[BTC]], 32
; CHECK: %arrayidx = getelementptr inbounds i32, ptr %idx, i64 %indvars.iv
; CHECK-NEXT: [[IDX:%.*]] = load i32, ptr %arrayidx
; CHECK-NEXT: %idxprom1 = sext i32 [[IDX]] to i64
; CHECK-NEXT: %arrayidx2 = getelementptr inbounds i64, ptr %a, i64 %idxprom1
; CHECK-NEXT: br i1 %activetime.indirect.long, label %[[THEN:[0-9]+]], label %[[REST:[0-9]+]]
; CHECK: [[THEN]]:
; CHECK-NEXT: %activetime.indirect.ahead = getelementptr i8, ptr %arrayidx, i64 64
; CHECK-NEXT: [[PAST:%.*]] = icmp ugt ptr %activetime.indirect.ahead, [[LAST]]
; CHECK-NEXT: [[CLAMPED:%.*]] = select i1 [[PAST]], ptr [[LAST]], ptr %activetime.indirect.ahead
; CHECK-NEXT: %activetime.indirect.index = load i32, ptr [[CLAMPED]], align 4
; CHECK-NEXT: %idxprom1.ahead = sext i32 %activetime.indirect.index to i64
; CHECK-NEXT: %arrayidx2.ahead = getelementptr i64, ptr %a, i64 %idxprom1.ahead
; CHECK-NEXT: call void @llvm.prefetch.p0(ptr %arrayidx2.ahead, i32 0, i32 3, i32 1)
; CHECK-NEXT: br label %[[REST]]
; CHECK: [[REST]]:
; CHECK-NEXT: load i64, ptr %arrayidx2

; Backwards: 64 bytes lower, clamped from below to idx itself.
; CHECK-LABEL: define dso_local i64 @backward(
; CHECK: %activetime.indirect.ahead = getelementptr i8, ptr %arrayidx, i64 -64
; CHECK-NEXT: [[PAST:%.*]] = icmp ult ptr %activetime.indirect.ahead, %idx
; CHECK-NEXT: select i1 [[PAST]], ptr %idx, ptr %activetime.indirect.ahead

; p[i]->v: the loaded pointer is the base, no index arithmetic.
; CHECK-LABEL: define dso_local i64 @ptrs(
; CHECK: %activetime.indirect.ahead = getelementptr i8, ptr %arrayidx, i64 128
; CHECK: %activetime.indirect.index = load ptr, ptr
; CHECK-NEXT: %v.ahead = getelementptr i8, ptr %activetime.indirect.index, i64 8
; CHECK-NEXT: call void @llvm.prefetch.p0(ptr %v.ahead,

; The hash repeated without nuw/nsw/inbounds.
; CHECK-LABEL: define dso_local i64 @hashed(
; CHECK: %activetime.indirect.index = load i32
; CHECK-NEXT: %mul.ahead = mul i32 %activetime.indirect.index, -1640531535
; CHECK-NEXT: %shr.ahead = lshr i32 %mul.ahead, 7
; CHECK-NEXT: %and.ahead = and i32 %shr.ahead, %mask
; CHECK-NEXT: %idxprom1.ahead = zext i32 %and.ahead to i64
; CHECK-NEXT: %arrayidx2.ahead = getelementptr i64, ptr %table, i64 %idxprom1.ahead
; CHECK-NEXT: call void @llvm.prefetch

; The remainder by m, which the loop divides by already.
; CHECK-LABEL: define dso_local i64 @modulo(
; CHECK: %rem.ahead = urem i32 %activetime.indirect.index, %m

; CHECK-LABEL: define dso_local i64 @early(
; CHECK-NOT: llvm.prefetch
; CHECK-LABEL: define dso_local i64 @sentinel(
; CHECK-NOT: llvm.prefetch
; CHECK: ret i64

; CHECK-LABEL: define dso_local i64 @probe(
; CHECK: %activetime.indirect.index = load i32, ptr
; CHECK-NEXT: %and.ahead = and i32 %activetime.indirect.index, %mask
; CHECK-NEXT: %idxprom1.ahead = zext i32 %and.ahead to i64
; CHECK-NEXT: %arrayidx2.ahead = getelementptr %struct.B, ptr %table, i64 %idxprom1.ahead
; CHECK-NEXT: call void @llvm.prefetch.p0(ptr %arrayidx2.ahead, i32 0, i32 3, i32 1)
; CHECK-NEXT: br label
; CHECK-NOT: call void @llvm.prefetch
; CHECK-LABEL: define dso_local void @spmv(

source_filename = "ind.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.B = type { i64, ptr }

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local i64 @gather(ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %idx, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp6 = icmp sgt i32 %n, 0
  br i1 %cmp6, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add, %for.body ]
  ret i64 %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.07 = phi i64 [ 0, %for.body.preheader ], [ %add, %for.body ]
  %arrayidx = getelementptr inbounds i32, ptr %idx, i64 %indvars.iv
  %0 = load i32, ptr %arrayidx, align 4
  %idxprom1 = sext i32 %0 to i64
  %arrayidx2 = getelementptr inbounds i64, ptr %a, i64 %idxprom1
  %1 = load i64, ptr %arrayidx2, align 8
  %add = add nsw i64 %1, %s.07
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local i64 @backward(ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %idx, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp6 = icmp sgt i32 %n, 0
  br i1 %cmp6, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %0 = zext nneg i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add, %for.body ]
  ret i64 %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ %0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.07 = phi i64 [ 0, %for.body.preheader ], [ %add, %for.body ]
  %indvars.iv.next = add nsw i64 %indvars.iv, -1
  %arrayidx = getelementptr inbounds i32, ptr %idx, i64 %indvars.iv.next
  %1 = load i32, ptr %arrayidx, align 4
  %idxprom1 = sext i32 %1 to i64
  %arrayidx2 = getelementptr inbounds i64, ptr %a, i64 %idxprom1
  %2 = load i64, ptr %arrayidx2, align 8
  %add = add nsw i64 %2, %s.07
  %cmp = icmp ugt i64 %indvars.iv, 1
  br i1 %cmp, label %for.body, label %for.cond.cleanup
}

; Function Attrs: nofree norecurse nosync nounwind memory(read, inaccessiblemem: none) uwtable
define dso_local i64 @ptrs(ptr nocapture noundef readonly %p, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp4 = icmp sgt i32 %n, 0
  br i1 %cmp4, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add, %for.body ]
  ret i64 %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.05 = phi i64 [ 0, %for.body.preheader ], [ %add, %for.body ]
  %arrayidx = getelementptr inbounds ptr, ptr %p, i64 %indvars.iv
  %0 = load ptr, ptr %arrayidx, align 8
  %v = getelementptr inbounds i8, ptr %0, i64 8
  %1 = load i64, ptr %v, align 8
  %add = add nsw i64 %1, %s.05
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local i64 @hashed(ptr nocapture noundef readonly %table, ptr nocapture noundef readonly %key, i32 noundef %mask, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp6 = icmp sgt i32 %n, 0
  br i1 %cmp6, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add, %for.body ]
  ret i64 %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.07 = phi i64 [ 0, %for.body.preheader ], [ %add, %for.body ]
  %arrayidx = getelementptr inbounds i32, ptr %key, i64 %indvars.iv
  %0 = load i32, ptr %arrayidx, align 4
  %mul = mul i32 %0, -1640531535
  %shr = lshr i32 %mul, 7
  %and = and i32 %shr, %mask
  %idxprom1 = zext nneg i32 %and to i64
  %arrayidx2 = getelementptr inbounds i64, ptr %table, i64 %idxprom1
  %1 = load i64, ptr %arrayidx2, align 8
  %add = add nsw i64 %1, %s.07
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local i64 @modulo(ptr nocapture noundef readonly %table, ptr nocapture noundef readonly %key, i32 noundef %m, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp6 = icmp sgt i32 %n, 0
  br i1 %cmp6, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add, %for.body ]
  ret i64 %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.07 = phi i64 [ 0, %for.body.preheader ], [ %add, %for.body ]
  %arrayidx = getelementptr inbounds i32, ptr %key, i64 %indvars.iv
  %0 = load i32, ptr %arrayidx, align 4
  %rem = urem i32 %0, %m
  %idxprom1 = zext i32 %rem to i64
  %arrayidx2 = getelementptr inbounds i64, ptr %table, i64 %idxprom1
  %1 = load i64, ptr %arrayidx2, align 8
  %add = add nsw i64 %1, %s.07
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local i64 @twolevel(ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %b, ptr nocapture noundef readonly %c, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp8 = icmp sgt i32 %n, 0
  br i1 %cmp8, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add, %for.body ]
  ret i64 %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %for.body ]
  %s.09 = phi i64 [ 0, %for.body.preheader ], [ %add, %for.body ]
  %arrayidx = getelementptr inbounds i32, ptr %c, i64 %indvars.iv
  %0 = load i32, ptr %arrayidx, align 4
  %idxprom1 = sext i32 %0 to i64
  %arrayidx2 = getelementptr inbounds i32, ptr %b, i64 %idxprom1
  %1 = load i32, ptr %arrayidx2, align 4
  %idxprom3 = sext i32 %1 to i64
  %arrayidx4 = getelementptr inbounds i64, ptr %a, i64 %idxprom3
  %2 = load i64, ptr %arrayidx4, align 8
  %add = add nsw i64 %2, %s.09
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local i64 @early(ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %idx, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp12 = icmp sgt i32 %n, 0
  br i1 %cmp12, label %for.body.preheader, label %cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.body:                                         ; preds = %for.body.preheader, %if.end
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %if.end ]
  %s.013 = phi i64 [ 0, %for.body.preheader ], [ %add, %if.end ]
  %arrayidx = getelementptr inbounds i32, ptr %idx, i64 %indvars.iv
  %0 = load i32, ptr %arrayidx, align 4
  %cmp1 = icmp slt i32 %0, 0
  br i1 %cmp1, label %cleanup, label %if.end

if.end:                                           ; preds = %for.body
  %idxprom4 = zext nneg i32 %0 to i64
  %arrayidx5 = getelementptr inbounds i64, ptr %a, i64 %idxprom4
  %1 = load i64, ptr %arrayidx5, align 8
  %add = add nsw i64 %1, %s.013
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %cleanup, label %for.body

cleanup:                                          ; preds = %if.end, %for.body, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %s.013, %for.body ], [ %add, %if.end ]
  ret i64 %s.0.lcssa
}

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: read) uwtable
define dso_local i64 @sentinel(ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %idx) local_unnamed_addr {
entry:
  %0 = load i32, ptr %idx, align 4
  %cmp9 = icmp sgt i32 %0, -1
  br i1 %cmp9, label %for.body, label %for.cond.cleanup

for.cond.cleanup:                                 ; preds = %for.body, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add, %for.body ]
  ret i64 %s.0.lcssa

for.body:                                         ; preds = %entry, %for.body
  %indvars.iv = phi i64 [ %indvars.iv.next, %for.body ], [ 0, %entry ]
  %1 = phi i32 [ %3, %for.body ], [ %0, %entry ]
  %s.010 = phi i64 [ %add, %for.body ], [ 0, %entry ]
  %idxprom3 = zext nneg i32 %1 to i64
  %arrayidx4 = getelementptr inbounds i64, ptr %a, i64 %idxprom3
  %2 = load i64, ptr %arrayidx4, align 8
  %add = add nsw i64 %2, %s.010
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %arrayidx = getelementptr inbounds i32, ptr %idx, i64 %indvars.iv.next
  %3 = load i32, ptr %arrayidx, align 4
  %cmp = icmp sgt i32 %3, -1
  br i1 %cmp, label %for.body, label %for.cond.cleanup
}

define dso_local i64 @probe(ptr nocapture noundef readonly %table, ptr nocapture noundef readonly %key, i32 noundef %mask, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp8 = icmp sgt i32 %n, 0
  br i1 %cmp8, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count = zext nneg i32 %n to i64
  br label %for.body

for.cond.cleanup:                                 ; preds = %do.end, %entry
  %s.0.lcssa = phi i64 [ 0, %entry ], [ %add, %do.end ]
  ret i64 %s.0.lcssa

for.body:                                         ; preds = %for.body.preheader, %do.end
  %indvars.iv = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next, %do.end ]
  %s.09 = phi i64 [ 0, %for.body.preheader ], [ %add, %do.end ]
  %arrayidx = getelementptr inbounds i32, ptr %key, i64 %indvars.iv
  %0 = load i32, ptr %arrayidx, align 4
  %and = and i32 %0, %mask
  %idxprom1 = zext i32 %and to i64
  %arrayidx2 = getelementptr inbounds %struct.B, ptr %table, i64 %idxprom1
  br label %do.body

do.body:                                          ; preds = %do.body, %for.body
  %s.1 = phi i64 [ %s.09, %for.body ], [ %add, %do.body ]
  %b.0 = phi ptr [ %arrayidx2, %for.body ], [ %2, %do.body ]
  %1 = load i64, ptr %b.0, align 8
  %add = add nsw i64 %1, %s.1
  %next = getelementptr inbounds i8, ptr %b.0, i64 8
  %2 = load ptr, ptr %next, align 8
  %tobool.not = icmp eq ptr %2, null
  br i1 %tobool.not, label %do.end, label %do.body

do.end:                                           ; preds = %do.body
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body
}

define dso_local void @spmv(ptr nocapture noundef writeonly %y, ptr nocapture noundef readonly %a, ptr nocapture noundef readonly %col, ptr nocapture noundef readonly %row, ptr nocapture noundef readonly %x, i32 noundef %n) local_unnamed_addr {
entry:
  %cmp31 = icmp sgt i32 %n, 0
  br i1 %cmp31, label %for.body.preheader, label %for.cond.cleanup

for.body.preheader:                               ; preds = %entry
  %wide.trip.count37 = zext nneg i32 %n to i64
  %.pre = load i32, ptr %row, align 4
  br label %for.body

for.cond.cleanup:                                 ; preds = %for.cond.cleanup5, %entry
  ret void

for.body:                                         ; preds = %for.body.preheader, %for.cond.cleanup5
  %0 = phi i32 [ %.pre, %for.body.preheader ], [ %1, %for.cond.cleanup5 ]
  %indvars.iv34 = phi i64 [ 0, %for.body.preheader ], [ %indvars.iv.next35, %for.cond.cleanup5 ]
  %indvars.iv.next35 = add nuw nsw i64 %indvars.iv34, 1
  %arrayidx3 = getelementptr inbounds i32, ptr %row, i64 %indvars.iv.next35
  %1 = load i32, ptr %arrayidx3, align 4
  %cmp427 = icmp slt i32 %0, %1
  br i1 %cmp427, label %for.body6.preheader, label %for.cond.cleanup5

for.body6.preheader:                              ; preds = %for.body
  %2 = sext i32 %0 to i64
  %wide.trip.count = sext i32 %1 to i64
  br label %for.body6

for.cond.cleanup5:                                ; preds = %for.body6, %for.body
  %s.0.lcssa = phi double [ 0.000000e+00, %for.body ], [ %6, %for.body6 ]
  %arrayidx14 = getelementptr inbounds double, ptr %y, i64 %indvars.iv34
  store double %s.0.lcssa, ptr %arrayidx14, align 8
  %exitcond38.not = icmp eq i64 %indvars.iv.next35, %wide.trip.count37
  br i1 %exitcond38.not, label %for.cond.cleanup, label %for.body

for.body6:                                        ; preds = %for.body6.preheader, %for.body6
  %indvars.iv = phi i64 [ %2, %for.body6.preheader ], [ %indvars.iv.next, %for.body6 ]
  %s.028 = phi double [ 0.000000e+00, %for.body6.preheader ], [ %6, %for.body6 ]
  %arrayidx8 = getelementptr inbounds double, ptr %a, i64 %indvars.iv
  %3 = load double, ptr %arrayidx8, align 8
  %arrayidx10 = getelementptr inbounds i32, ptr %col, i64 %indvars.iv
  %4 = load i32, ptr %arrayidx10, align 4
  %idxprom11 = sext i32 %4 to i64
  %arrayidx12 = getelementptr inbounds double, ptr %x, i64 %idxprom11
  %5 = load double, ptr %arrayidx12, align 8
  %6 = tail call double @llvm.fmuladd.f64(double %3, double %5, double %s.028)
  %indvars.iv.next = add nsw i64 %indvars.iv, 1
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count
  br i1 %exitcond.not, label %for.cond.cleanup5, label %for.body6
}
