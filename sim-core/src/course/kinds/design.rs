//! The design exercise: the learner turns open knobs of a design and targets' protections; the explorers prove it safe or find a counterexample, and its cost is the catalogue's.

use super::prelude::*;

/// The design a design-exercise answer makes of the start design.
pub(crate) fn chosen_design(start: Design, answer: &DesignAnswer) -> Design {
    Design {
        commit_checks: answer.commit_checks.unwrap_or(start.commit_checks),
        renew_checks: answer.renew_checks.unwrap_or(start.renew_checks),
        token: answer.token.unwrap_or(start.token),
        lease_clock: answer.lease_clock.unwrap_or(start.lease_clock),
        claim: answer.claim.unwrap_or(start.claim),
        cancel_epoch: answer.cancel_epoch.unwrap_or(start.cancel_epoch),
        input_revision: answer.input_revision.unwrap_or(start.input_revision),
        ..start
    }
}

/// The exercise's world with `design`, the targets' protections and the
/// targets sent to reconciliation (whose violations are not counted).
pub(crate) fn design_world(
    design: Design,
    targets: &[Protect],
    reconcile: &[u8],
    world: &WorldOptions,
) -> Result<World, CourseError> {
    let mut options = world.clone();
    options.design = design;
    options.design_source = crate::scenario::DesignSource::Table;
    options.targets = Some(targets.to_vec());
    let mut built = options.world().map_err(CourseError::World)?;
    built.reconciled = reconcile
        .iter()
        .filter(|t| usize::from(**t) < targets.len())
        .fold(0, |mask, t| mask | (1 << t));
    Ok(built)
}

/// Where violations can happen under `design` with `targets`.
pub(crate) fn sites_of(
    design: Design,
    targets: &[Protect],
    world: &WorldOptions,
) -> Result<Sites, CourseError> {
    let built = design_world(design, targets, &[], world)?;
    let sites = search_sites(&built)?;
    if sites.incomplete {
        return Err(CourseError::ExplorationIncomplete);
    }
    Ok(sites)
}

#[cfg(feature = "search")]
fn search_sites(world: &World) -> Result<Sites, CourseError> {
    violation_sites(world).map_err(CourseError::World)
}

/// Without the search (the page's own wasm), its grading worker decides.
#[cfg(not(feature = "search"))]
fn search_sites(_: &World) -> Result<Sites, CourseError> {
    Err(CourseError::SearchNotHere)
}

/// The explorers' exhaustive search, or, without it, [`CourseError::SearchNotHere`].
pub(crate) fn search_exhaustive(
    world: &World,
    want: Option<ViolationKind>,
) -> Result<Report, CourseError> {
    #[cfg(feature = "search")]
    {
        explore_exhaustive(world, want, &mut RunToEnd).map_err(CourseError::World)
    }
    #[cfg(not(feature = "search"))]
    {
        let _ = (world, want);
        Err(CourseError::SearchNotHere)
    }
}

/// The design exercise's fixed facts, borrowed from its [`ExerciseKind`].
#[derive(Debug, Clone, Copy)]
pub struct DesignExercise<'a> {
    pub start: Design,
    pub open: &'a [Knob],
    pub world: &'a WorldOptions,
    pub resources: &'a [ResourceKind],
    pub fronts: Fronts,
    memo: &'a MinimalMemo,
}

impl<'a> DesignExercise<'a> {
    /// The design facts of `kind`, if it is a design exercise.
    pub fn of(kind: &'a ExerciseKind) -> Option<DesignExercise<'a>> {
        match kind {
            ExerciseKind::Design {
                start,
                open,
                world,
                resources,
                fronts,
                minimal,
                ..
            } => Some(DesignExercise {
                start: *start,
                open,
                world,
                resources,
                fronts: *fronts,
                memo: minimal,
            }),
            _ => None,
        }
    }

    /// The targets' protections at the start.
    pub fn start_targets(&self) -> Vec<Protect> {
        self.world.targets.clone().unwrap_or_default()
    }

    /// The design and target protections an answer chooses.
    pub fn chosen(&self, answer: &DesignAnswer) -> (Design, Vec<Protect>) {
        let design = chosen_design(self.start, answer);
        let targets = answer
            .target_protect
            .clone()
            .filter(|_| self.open.contains(&Knob::TargetProtect))
            .unwrap_or_else(|| self.start_targets());
        (design, targets)
    }

    /// What `design` with the protections `targets` and the
    /// reconciliation of `reconcile` costs, by the catalogue (`None`: a
    /// target's resource does not offer its protection). The lease clock
    /// and the claim procedure count only where the exercise lets the
    /// learner choose them; the predicates and the token are free (see
    /// [`crate::predicate_cost_words`]).
    pub fn cost(&self, design: &Design, targets: &[Protect], reconcile: &[u8]) -> Option<u32> {
        let mut total = RECONCILE_COST * reconcile.len() as u32;
        if self.open.contains(&Knob::LeaseClock) {
            total += crate::lease_clock_cost(design.lease_clock);
        }
        if self.open.contains(&Knob::Claim) {
            total += crate::claim_cost(design.claim);
        }
        if self.open.contains(&Knob::CancelEpoch) {
            total += crate::cancel_epoch_cost(design.cancel_epoch);
        }
        if self.open.contains(&Knob::InputRevision) {
            total += crate::input_revision_cost(design.input_revision);
        }
        for (protect, kind) in targets.iter().zip(self.resources) {
            total += kind.offer(*protect, self.fronts)?.cost;
        }
        Some(total)
    }

    /// The targets where a violation stays reachable under the answer's
    /// design and protections: the reconciliation list that design needs
    /// (`None` when the job table itself is unsafe). For tests and tools
    /// that build answers; the grader never tells a learner.
    pub fn reconciliation_needed(
        &self,
        answer: &DesignAnswer,
    ) -> Result<Option<Vec<u8>>, CourseError> {
        let (design, targets) = self.chosen(answer);
        let sites = sites_of(design, &targets, self.world)?;
        Ok((!sites.job_table).then(|| {
            (0..targets.len() as u8)
                .filter(|t| sites.targets & (1 << t) != 0)
                .collect()
        }))
    }

    /// The open knobs that cost nothing (the job table's predicates, the
    /// token), each at its strongest: a predicate more in the same
    /// statement never makes a design less safe. The lease clock is left
    /// as it starts; [`compute_minimal_design`] tries each clock.
    fn free_knobs_strongest(&self) -> Design {
        let mut design = self.start;
        if self.open.contains(&Knob::CommitChecks) {
            design.commit_checks = CheckSet::ALL;
        }
        if self.open.contains(&Knob::RenewChecks) {
            design.renew_checks = CheckSet::ALL;
        }
        if self.open.contains(&Knob::Token) {
            design.token = TokenKind::Monotonic;
        }
        design
    }

    /// The lease clocks a minimal design may use, cheapest first: each
    /// clock when the knob is open, else the start design's.
    fn clock_choices(&self) -> Vec<LeaseClock> {
        let mut clocks = if self.open.contains(&Knob::LeaseClock) {
            LeaseClock::ALL.to_vec()
        } else {
            vec![self.start.lease_clock]
        };
        clocks.sort_by_key(|clock| crate::lease_clock_cost(*clock));
        clocks
    }

    /// The claim procedures the exercise's world can run: all of them with
    /// one job; with several, only those that do not read one named row.
    pub fn claims_offered(&self) -> Vec<ClaimProcedure> {
        ClaimProcedure::ALL
            .into_iter()
            .filter(|claim| claim.runs_with_jobs(self.world.jobs))
            .collect()
    }

    /// A design switch's values a minimal design may use, cheapest first:
    /// both when `knob` is open, else the start design's (`start`); the
    /// cancel epoch and the input revision are such switches.
    fn switch_choices(&self, knob: Knob, start: bool, cost: fn(bool) -> u32) -> Vec<bool> {
        if self.open.contains(&knob) {
            let mut values = vec![false, true];
            values.sort_by_key(|value| cost(*value));
            values
        } else {
            vec![start]
        }
    }

    /// The claim procedures a minimal design may use, cheapest first (a
    /// stable sort: on a tie the catalogue's order): each the world can
    /// run when the knob is open, else the start design's.
    fn claim_choices(&self) -> Vec<ClaimProcedure> {
        let mut claims = if self.open.contains(&Knob::Claim) {
            self.claims_offered()
        } else {
            vec![self.start.claim]
        };
        claims.sort_by_key(|claim| crate::claim_cost(*claim));
        claims
    }
}

/// The least cost of a safe design for the exercise, proved by the
/// explorers, with one design that has it; `None` when no choice of the
/// open knobs keeps the job table safe.
///
/// Targets do not interact: a write's acceptance changes only its own
/// target's state, and a worker goes on with its program whatever a
/// target answered. So whether a violation can reach target `t` depends on
/// `t`'s protection alone, and one search per option position (every
/// target given its k-th offer) finds, for every target and offer, whether
/// the target must then be reconciled. The cheapest choice per target is
/// then the cheapest design: the same result as enumerating every
/// combination, in a handful of searches.
///
/// It takes several exhaustive searches and never changes for a loaded
/// exercise, so it is computed once and kept with the exercise.
pub fn minimal_design(exercise: &DesignExercise<'_>) -> Result<Option<MinimalDesign>, CourseError> {
    exercise
        .memo
        .get_or_init(|| compute_minimal_design(exercise))
        .clone()
}

pub(crate) fn compute_minimal_design(
    exercise: &DesignExercise<'_>,
) -> Result<Option<MinimalDesign>, CourseError> {
    let mut best: Option<MinimalDesign> = None;
    for input_revision in exercise.switch_choices(
        Knob::InputRevision,
        exercise.start.input_revision,
        crate::input_revision_cost,
    ) {
        for cancel_epoch in exercise.switch_choices(
            Knob::CancelEpoch,
            exercise.start.cancel_epoch,
            crate::cancel_epoch_cost,
        ) {
            for claim in exercise.claim_choices() {
                for lease_clock in exercise.clock_choices() {
                    let design = Design {
                        lease_clock,
                        claim,
                        cancel_epoch,
                        input_revision,
                        ..exercise.free_knobs_strongest()
                    };
                    // A dearer choice wins only by a cheaper total: on a tie
                    // the cheaper one, tried first, stays.
                    if let Some(found) = minimal_with(exercise, design)?
                        && best.as_ref().is_none_or(|b| found.cost < b.cost)
                    {
                        best = Some(found);
                    }
                }
            }
        }
    }
    Ok(best)
}

/// The least cost of a safe design with the free knobs of `design`,
/// choosing each target's protection and reconciliation (see
/// [`minimal_design`] for why one search per option position suffices).
/// A design under which a takeover can wait on a held row lock is no
/// answer at any cost: whether it can does not depend on the targets (a
/// worker goes on whatever a target answered), so any search tells.
fn minimal_with(
    exercise: &DesignExercise<'_>,
    design: Design,
) -> Result<Option<MinimalDesign>, CourseError> {
    let start_targets = exercise.start_targets();
    let choices: Vec<Vec<Protect>> = if exercise.open.contains(&Knob::TargetProtect) {
        exercise
            .resources
            .iter()
            .map(|kind| {
                kind.offers(exercise.fronts)
                    .into_iter()
                    .map(|o| o.protect)
                    .collect()
            })
            .collect()
    } else {
        start_targets.iter().map(|p| vec![*p]).collect()
    };
    let widest = choices.iter().map(Vec::len).max().unwrap_or(1).max(1);
    // reaches[t][k]: a violation reaches target t under its k-th choice.
    let mut reaches: Vec<Vec<bool>> = choices.iter().map(|c| vec![false; c.len()]).collect();
    for k in 0..widest {
        let targets: Vec<Protect> = choices.iter().map(|c| c[k.min(c.len() - 1)]).collect();
        let sites = sites_of(design, &targets, exercise.world)?;
        if sites.job_table || sites.blocked_takeover {
            return Ok(None);
        }
        for (t, reach) in reaches.iter_mut().enumerate() {
            if k < reach.len() {
                reach[k] = sites.targets & (1 << t) != 0;
            }
        }
    }
    let mut targets = Vec::new();
    let mut reconcile = Vec::new();
    for (t, (options, reach)) in choices.iter().zip(&reaches).enumerate() {
        let kind = exercise
            .resources
            .get(t)
            .copied()
            .unwrap_or(ResourceKind::Generic);
        let price = |k: usize| {
            kind.offer(options[k], exercise.fronts)
                .map_or(u32::MAX / 4, |o| o.cost)
                + if reach[k] { RECONCILE_COST } else { 0 }
        };
        let best = (0..options.len()).min_by_key(|k| price(*k)).unwrap_or(0);
        targets.push(options[best]);
        if reach[best] {
            reconcile.push(t as u8);
        }
    }
    let cost = exercise
        .cost(&design, &targets, &reconcile)
        .ok_or(CourseError::NoSafeDesign)?;
    Ok(Some(MinimalDesign {
        design,
        targets,
        reconcile,
        cost,
    }))
}

/// Target ids `t1`, `t2`… of `indices`, for feedback.
pub(crate) fn target_names(indices: impl IntoIterator<Item = u8>) -> String {
    indices
        .into_iter()
        .map(|t| format!("t{}", t + 1))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Design: right when the design is safe (the explorers find no violation
/// except at the targets sent to reconciliation), no takeover can wait on
/// a held row lock, every target sent to reconciliation really is
/// reachable by a violation, and no cheaper choice is also safe. A wrong
/// answer says which part failed, never the cheaper design.
pub(crate) fn grade_design(
    exercise: &DesignExercise<'_>,
    choice: &DesignAnswer,
) -> Result<Grade, CourseError> {
    let (design, targets) = exercise.chosen(choice);
    let cost = exercise
        .cost(&design, &targets, &choice.reconcile)
        .ok_or(CourseError::NoSafeDesign)?;
    let sites = sites_of(design, &targets, exercise.world)?;
    let mask = choice.reconcile.iter().fold(0u8, |mask, t| mask | (1 << t));
    let safe = !sites.job_table && sites.targets & !mask == 0;
    let world = design_world(design, &targets, &choice.reconcile, exercise.world)?;
    // The search that finds a counterexample, or (for a safe design whose
    // sites search met a blocked takeover) the schedule of the wait.
    let report = (!safe || sites.blocked_takeover)
        .then(|| search_exhaustive(&world, None))
        .transpose()?;
    let blocked = report.as_ref().and_then(|r| r.blocked_takeover.as_ref());
    let (summary, verdict, counterexample) = if safe {
        (
            safe_summary(world, &sites),
            safe_item(&choice.reconcile),
            None,
        )
    } else {
        let report = report.as_ref().ok_or(CourseError::NoSafeDesign)?;
        let (summary, counterexample) = unsafe_summary(report);
        let item = GradeItem {
            index: None,
            right: false,
            text: text(
                "Unsafe: the explorers broke it; see the counterexample.".to_owned(),
                "不安全：探索器攻破了它，请看反例。".to_owned(),
            ),
        };
        (summary, item, counterexample)
    };
    let mut items = vec![verdict];
    if let Some(blocked) = blocked {
        items.push(blocked_item(design.claim, blocked));
    }
    // Reconciling a target no violation can reach is work for nothing.
    let needless: Vec<u8> = choice
        .reconcile
        .iter()
        .copied()
        .filter(|t| sites.targets & (1 << t) == 0)
        .collect();
    if !needless.is_empty() {
        let names = target_names(needless.iter().copied());
        items.push(GradeItem {
            index: None,
            right: false,
            text: text(
                format!("Reconciliation list wrong: no violation can reach {names} with the protection you chose, so there is nothing to reconcile there."),
                format!("对账清单有误：在你选的保护下，没有任何违例能到达 {names}，那里没有东西需要对账。"),
            ),
        });
    }
    // A design that blocks takeovers is never right, whatever its cost.
    if safe && needless.is_empty() && blocked.is_none() {
        let least = minimal_design(exercise)?.map(|m| m.cost);
        items.push(cost_item(cost, least.is_some_and(|least| least < cost)));
    }
    let correct = items.iter().all(|item| item.right);
    Ok(Grade {
        correct,
        summary,
        items,
        counterexample,
        scenario: None,
    })
}

/// A safe design's summary: the sites search visited every state the
/// explorer would, so its count is the proof's size, said as the explorer
/// says it.
pub(crate) fn safe_summary(world: World, sites: &Sites) -> Text {
    let report = crate::explore::Report {
        verdict: crate::explore::Verdict::Safe,
        method: Method::Exhaustive,
        world,
        limits: crate::explore::Limits::default(),
        stats: crate::explore::Stats {
            states: sites.states,
            ..crate::explore::Stats::default()
        },
        exhausted: sites.exhausted,
        counterexample: None,
        shrink_history: Vec::new(),
        blocked_takeover: None,
        deadlock: None,
    };
    told(|lang| crate::explore::safe_sentence(&report, lang))
}

/// A safe design's verdict item, naming the targets it reconciles.
pub(crate) fn safe_item(reconcile: &[u8]) -> GradeItem {
    GradeItem {
        index: None,
        right: true,
        text: if reconcile.is_empty() {
            text(
                "Safe: the explorers found no stale or after-cancel effect.".to_owned(),
                "安全：探索器没有找到任何旧代次的或取消之后的效果。".to_owned(),
            )
        } else {
            let names = target_names(reconcile.iter().copied());
            text(
                format!(
                    "Safe: the explorers found no stale or after-cancel effect outside {names}, which you send to reconciliation."
                ),
                format!(
                    "安全：除了交给对账的 {names}，探索器没有在别处找到旧代次的或取消之后的效果。"
                ),
            )
        },
    }
}

/// An unsafe design's summary (the counterexample's explanation) and the
/// counterexample, from an exhaustive search's `report`.
pub(crate) fn unsafe_summary(report: &Report) -> (Text, Option<Counterexample>) {
    let summary = match &report.counterexample {
        Some(found) => found.explanation.clone(),
        None => told(|lang| crate::explore::safe_sentence(report, lang)),
    };
    (summary, report.counterexample.clone())
}

/// The item of a design under which a takeover waits on a held row lock:
/// what holds the lock, and the explorers' schedule of the wait in words.
pub(crate) fn blocked_item(claim: ClaimProcedure, blocked: &BlockedTakeover) -> GradeItem {
    let (en, zh) = if claim == ClaimProcedure::HeldAcrossWork {
        (
            "Holds the claim's row lock across the work: when the holder pauses, a takeover waits behind the lock.",
            "领取的行锁一直占到干完活：持有者一停顿，接管就只能在锁后面等。",
        )
    } else {
        (
            "A pause inside the claim's transaction keeps the row lock: a takeover waits behind it although the lease has ended.",
            "在领取事务里的一次停顿会一直占着行锁：即使租约已经结束，接管也只能在锁后面等。",
        )
    };
    GradeItem {
        index: None,
        right: false,
        text: text(
            format!("{en} The explorers' schedule: {}", blocked.explanation.en),
            format!("{zh}探索器找到的调度：{}", blocked.explanation.zh),
        ),
    }
}

/// A safe design's cost item: right unless a `cheaper` design is safe too.
pub(crate) fn cost_item(cost: u32, cheaper: bool) -> GradeItem {
    GradeItem {
        index: None,
        right: !cheaper,
        text: if cheaper {
            text(
                format!(
                    "Not minimal: your design costs {cost}, and a cheaper design is also safe."
                ),
                format!("不是最省的：你的设计代价是 {cost}，还有更便宜的设计同样安全。"),
            )
        } else {
            text(
                format!("Minimal: your design costs {cost}, and no cheaper choice is safe."),
                format!("最省：你的设计代价是 {cost}，没有更便宜的选择是安全的。"),
            )
        },
    }
}

/// A design exercise's key: the minimal safe design's value of each open
/// knob, and that design.
pub(crate) fn design_key(
    exercise: &DesignExercise<'_>,
) -> Result<(DesignAnswer, MinimalDesign), CourseError> {
    let minimal = minimal_design(exercise)?.ok_or(CourseError::NoSafeDesign)?;
    let design = minimal.design;
    let open = |knob: Knob| exercise.open.contains(&knob);
    let key = DesignAnswer {
        commit_checks: open(Knob::CommitChecks).then_some(design.commit_checks),
        renew_checks: open(Knob::RenewChecks).then_some(design.renew_checks),
        token: open(Knob::Token).then_some(design.token),
        lease_clock: open(Knob::LeaseClock).then_some(design.lease_clock),
        target_protect: open(Knob::TargetProtect).then(|| minimal.targets.clone()),
        claim: open(Knob::Claim).then_some(design.claim),
        cancel_epoch: open(Knob::CancelEpoch).then_some(design.cancel_epoch),
        input_revision: open(Knob::InputRevision).then_some(design.input_revision),
        reconcile: minimal.reconcile.clone(),
    };
    Ok((key, minimal))
}

/// What a design answer's targets are checked against.
pub(crate) struct TargetFacts<'a> {
    pub(crate) world: &'a WorldOptions,
    pub(crate) resources: &'a [ResourceKind],
    pub(crate) fronts: Fronts,
}

/// A design answer's knobs: only the exercise's open knobs, each a value
/// its kind knows.
pub(crate) fn design_answer(
    open: &[Knob],
    target: &TargetFacts<'_>,
    shape: &DesignJson,
) -> Result<DesignAnswer, AnswerError> {
    let given = [
        (Knob::CommitChecks, shape.commit_checks.is_absent()),
        (Knob::RenewChecks, shape.renew_checks.is_absent()),
        (Knob::Token, shape.token.is_absent()),
        (Knob::LeaseClock, shape.lease_clock.is_absent()),
        (Knob::TargetProtect, shape.target_protect.is_absent()),
        (Knob::Claim, shape.claim.is_absent()),
        (Knob::CancelEpoch, shape.cancel_epoch.is_absent()),
        (Knob::InputRevision, shape.input_revision.is_absent()),
    ];
    if let Some((closed, _)) = given
        .iter()
        .find(|(knob, absent)| !absent && !open.contains(knob))
    {
        return Err(AnswerError::ClosedKnob(closed.name().to_owned()));
    }
    let checks = |key: &str, field: &Names| -> Result<Option<CheckSet>, AnswerError> {
        let Some(listed) = distinct_names(key, field)? else {
            return Ok(None);
        };
        let mut set = CheckSet::EMPTY;
        for name in listed {
            set = set.with(
                Check::from_name(name).ok_or_else(|| AnswerError::UnknownCheck(name.to_owned()))?,
            );
        }
        Ok(Some(set))
    };
    // A name of the wrong type is an unknown name: `unknown token kind ``.
    fn named(field: &Field<String>) -> Option<&str> {
        match field {
            Field::Absent => None,
            Field::Is(name) => Some(name.as_str()),
            Field::Not => Some(""),
        }
    }
    let mut answer = DesignAnswer {
        commit_checks: checks("commit_checks", &shape.commit_checks)?,
        renew_checks: checks("renew_checks", &shape.renew_checks)?,
        ..DesignAnswer::default()
    };
    if let Some(name) = named(&shape.token) {
        let token = TokenKind::from_name(name);
        answer.token = Some(token.ok_or_else(|| AnswerError::UnknownToken(name.to_owned()))?);
    }
    if let Some(name) = named(&shape.lease_clock) {
        let clock = LeaseClock::from_name(name);
        answer.lease_clock = Some(clock.ok_or_else(|| AnswerError::UnknownClock(name.to_owned()))?);
    }
    if let Some(listed) = list_names("target_protect", &shape.target_protect)? {
        answer.target_protect = Some(target_protect(&listed, target)?);
    }
    if let Some(name) = named(&shape.claim) {
        let claim = ClaimProcedure::from_name(name)
            .ok_or_else(|| AnswerError::UnknownClaim(name.to_owned()))?;
        if !claim.runs_with_jobs(target.world.jobs) {
            return Err(AnswerError::ClaimJobs(name.to_owned()));
        }
        answer.claim = Some(claim);
    }
    if let Some(epoch) = shape.cancel_epoch.present() {
        let epoch = epoch.map_err(|()| AnswerError::NotBool("cancel_epoch".to_owned()))?;
        answer.cancel_epoch = Some(*epoch);
    }
    if let Some(advance) = shape.input_revision.present() {
        let advance = advance.map_err(|()| AnswerError::NotBool("input_revision".to_owned()))?;
        answer.input_revision = Some(*advance);
    }
    answer.reconcile = reconcile(&shape.reconcile, target.resources.len())?;
    Ok(answer)
}

/// A knob's list of names (`key` is the knob, for the error); `None` when
/// absent.
pub(crate) fn list_names<'a>(
    key: &str,
    field: &'a Names,
) -> Result<Option<Vec<&'a str>>, AnswerError> {
    let Some(listed) = field.present() else {
        return Ok(None);
    };
    let listed = listed.map_err(|()| AnswerError::NotList(key.to_owned()))?;
    listed
        .iter()
        .map(|name| match name {
            Field::Is(name) => Ok(name.as_str()),
            Field::Absent | Field::Not => Err(AnswerError::NotNames(key.to_owned())),
        })
        .collect::<Result<Vec<&str>, AnswerError>>()
        .map(Some)
}

/// A knob's names, each listed once: `["owner", "owner"]` is a slip to
/// name, not a set to quietly collapse.
pub(crate) fn distinct_names<'a>(
    key: &str,
    field: &'a Names,
) -> Result<Option<Vec<&'a str>>, AnswerError> {
    let listed = list_names(key, field)?;
    let names = listed.as_deref().unwrap_or_default();
    if let Some((_, name)) = names
        .iter()
        .enumerate()
        .find(|(at, name)| names[..*at].contains(name))
    {
        return Err(AnswerError::RepeatedName {
            key: key.to_owned(),
            name: (*name).to_owned(),
        });
    }
    Ok(listed)
}

/// The targets sent to reconciliation, by index, sorted: each a target of
/// the world (`t1` … `tN`), each once.
pub(crate) fn reconcile(field: &Names, targets: usize) -> Result<Vec<u8>, AnswerError> {
    let mut reconciled = distinct_names("reconcile", field)?
        .unwrap_or_default()
        .into_iter()
        .map(|name| {
            (0..targets)
                .find(|t| format!("t{}", t + 1) == name)
                .map(|t| t as u8)
                .ok_or_else(|| AnswerError::NoTarget(name.to_owned()))
        })
        .collect::<Result<Vec<u8>, AnswerError>>()?;
    reconciled.sort_unstable();
    Ok(reconciled)
}

/// `target_protect`'s protections, one per target of the world, each one
/// its resource offers.
pub(crate) fn target_protect(
    names: &[&str],
    target: &TargetFacts<'_>,
) -> Result<Vec<Protect>, AnswerError> {
    let protects = names
        .iter()
        .map(|name| {
            Protect::from_name(name).ok_or_else(|| AnswerError::UnknownProtect((*name).to_owned()))
        })
        .collect::<Result<Vec<Protect>, AnswerError>>()?;
    let count = target.world.targets.as_ref().map_or(0, Vec::len);
    if protects.len() != count {
        return Err(AnswerError::TargetCount(count));
    }
    for (index, (protect, kind)) in protects.iter().zip(target.resources).enumerate() {
        if kind.offer(*protect, target.fronts).is_none() {
            return Err(AnswerError::Unsupported {
                target: format!("t{}", index + 1),
                kind: *kind,
                protect: *protect,
                fronts: target.fronts,
            });
        }
    }
    Ok(protects)
}

/// Only the knobs the exercise opens, as [`Answer::Design`] reads them; the
/// reconciliation list only when it names a target.
pub(crate) fn design_json(kind: &ExerciseKind, design: &DesignAnswer) -> DesignJson {
    let open: &[Knob] = match kind {
        ExerciseKind::Design { open, .. } => open,
        _ => &[],
    };
    fn knob<T>(open: &[Knob], knob: Knob, field: Option<Field<T>>) -> Field<T> {
        field.filter(|_| open.contains(&knob)).unwrap_or_default()
    }
    let name = |name: &str| Field::Is(name.to_owned());
    DesignJson {
        commit_checks: knob(
            open,
            Knob::CommitChecks,
            design.commit_checks.map(|set| names(set.names())),
        ),
        renew_checks: knob(
            open,
            Knob::RenewChecks,
            design.renew_checks.map(|set| names(set.names())),
        ),
        token: knob(open, Knob::Token, design.token.map(|t| name(t.name()))),
        lease_clock: knob(
            open,
            Knob::LeaseClock,
            design.lease_clock.map(|c| name(c.name())),
        ),
        target_protect: knob(
            open,
            Knob::TargetProtect,
            design
                .target_protect
                .as_ref()
                .map(|protects| names(protects.iter().map(|p| p.name()))),
        ),
        claim: knob(open, Knob::Claim, design.claim.map(|c| name(c.name()))),
        cancel_epoch: knob(open, Knob::CancelEpoch, design.cancel_epoch.map(Field::Is)),
        input_revision: knob(
            open,
            Knob::InputRevision,
            design.input_revision.map(Field::Is),
        ),
        reconcile: if design.reconcile.is_empty() {
            Field::Absent
        } else {
            let targets: Vec<String> = design
                .reconcile
                .iter()
                .map(|t| format!("t{}", u32::from(*t) + 1))
                .collect();
            names(targets.iter().map(String::as_str))
        },
    }
}

/// A design exercise is solvable: a minimal safe design exists, and it
/// passes the grader (any design of the same least cost passes too, so a
/// tie between minimal designs is no problem).
pub(crate) fn design_problem(
    lesson: &Lesson,
    exercise: &Exercise,
    kind: &ExerciseKind,
) -> Option<LintKind> {
    let facts = DesignExercise::of(kind);
    let minimal = facts.as_ref().map(minimal_design);
    let supplement = facts.is_some_and(|f| f.fronts.gateway || f.fronts.dispatcher);
    match minimal {
        // Every kind offers "nothing" at no cost, so a minimal cost of 0
        // means the unprotected design is safe.
        Some(Ok(Some(found))) if supplement && found.cost == 0 => {
            Some(LintKind::NoCheaperWrongAnswer)
        }
        Some(Ok(Some(_))) => (!worked_solution(lesson, exercise).is_ok_and(|s| s.grade.correct))
            .then_some(LintKind::MinimalFails),
        Some(Ok(None)) | None => Some(LintKind::NoSafeDesign),
        Some(Err(why)) => Some(LintKind::World(why)),
    }
}

/// Reading this kind from a lesson file.
impl Reader<'_> {
    pub(crate) fn design_exercise(
        &mut self,
        fields: &crate::parse::Fields<'_, '_>,
    ) -> Option<ExerciseKind> {
        let (start, start_source) = match fields.get(9) {
            Some(value) => self.design(value)?,
            None => (
                Preset::TtlLockOnly.design(),
                DesignSource::Preset(Preset::TtlLockOnly),
            ),
        };
        let open = self.open_knobs(fields)?;
        let mut world = WorldOptions::new(start, start_source);
        let (resources, fronts) = match fields.get(11) {
            Some(value) => self.world_table(value, &mut world)?,
            None => (
                vec![ResourceKind::Generic; DESIGN_TARGETS],
                Fronts::default(),
            ),
        };
        // A real resource starts with the start design's protection only
        // when it offers it; otherwise with none.
        world.targets = Some(
            resources
                .iter()
                .map(|kind| {
                    kind.offer(start.target_protect, fronts)
                        .map_or(crate::design::Protect::None, |o| o.protect)
                })
                .collect(),
        );
        if let Err(problem) = world.world() {
            self.error(
                fields.span.clone(),
                words(
                    format!("the design exercise's world is invalid: {problem}"),
                    format!("设计练习的世界设置无效：{}", problem.message(Lang::Zh)),
                ),
            );
            return None;
        }
        Some(ExerciseKind::Design {
            start,
            start_source,
            open,
            world,
            resources,
            fronts,
            minimal: MinimalMemo::default(),
        })
    }

    /// The knobs a design exercise lets the learner turn: at least one.
    pub(crate) fn open_knobs(
        &mut self,
        fields: &crate::parse::Fields<'_, '_>,
    ) -> Option<Vec<Knob>> {
        let open_value = self.required(
            fields,
            10,
            "open",
            &words("this `design` exercise", "这道 `design` 练习"),
        )?;
        let entries = self.array(open_value, &name("`open`"))?;
        let mut open = Vec::new();
        for entry in entries {
            if let Some(knob) = self.choice(
                entry,
                &words("design knob", "设计旋钮"),
                &Knob::ALL,
                Knob::name,
            ) {
                open.push(knob);
            }
        }
        if open.is_empty() {
            self.error(
                open_value.span(),
                words(
                    "`open` needs at least one knob the learner may turn",
                    "`open` 至少需要一个学习者可以调节的旋钮",
                ),
            );
        }
        Some(open)
    }

    /// A design exercise's `[world]` table, read into `world`; returns the
    /// resource each target stands for (a count gives anonymous targets,
    /// a list of kind names real ones) and what stands in front of them.
    pub(crate) fn world_table(
        &mut self,
        value: &crate::parse::Value<'_>,
        world: &mut WorldOptions,
    ) -> Option<(Vec<ResourceKind>, Fronts)> {
        let table = self.table(value, &name("`world`"))?;
        let mut targets = vec![ResourceKind::Generic; DESIGN_TARGETS];
        const WORLD: [&str; 15] = [
            "workers",
            "targets",
            "ttl",
            "cancel",
            "restarted",
            "jobs",
            "max_time",
            "max_claims",
            "heartbeat",
            "max_steps",
            "gateway",
            "max_in_flight",
            "max_delay",
            "dispatcher",
            "revise",
        ];
        let world_fields = self.fields(table, value.span(), &WORLD, &name("`world`"));
        let number = |reader: &mut Self, index: usize, name: &str, min: i64, max: i64| {
            world_fields
                .get(index)
                .and_then(|v| reader.integer(v, &Text::both(&format!("`world.{name}`")), min, max))
        };
        if let Some(workers) = number(self, 0, "workers", 2, 4) {
            world.workers = workers as u8;
        }
        match world_fields.get(1) {
            Some(list) if matches!(list.get_ref(), toml::de::DeValue::Array(_)) => {
                targets = self.target_kinds(list)?;
            }
            Some(_) => {
                if let Some(count) = number(self, 1, "targets", 0, 4) {
                    targets = vec![ResourceKind::Generic; count as usize];
                }
            }
            None => {}
        }
        let flag = |reader: &mut Self, index: usize| {
            world_fields
                .get(index)
                .and_then(|v| reader.bool(v, &name(&format!("`world.{}`", WORLD[index]))))
                .unwrap_or(false)
        };
        let fronts = Fronts {
            gateway: flag(self, 10),
            dispatcher: flag(self, 13),
        };
        if let Some(ttl) = number(self, 2, "ttl", 1, 15) {
            world.ttl = ttl as u8;
        }
        if let Some(jobs) = number(self, 5, "jobs", 1, 3) {
            world.jobs = jobs as u8;
        }
        let mut bounds = Bounds::default();
        if let Some(time) = number(self, 6, "max_time", 1, 48) {
            bounds.max_time = time as u8;
        }
        if let Some(claims) = number(self, 7, "max_claims", 1, 8) {
            bounds.max_claims = claims as u8;
        }
        if let Some(steps) = number(self, 9, "max_steps", 1, 64) {
            bounds.max_steps = steps as u16;
        }
        // Delivery delays: writes are sent and arrive later, so a request
        // can still be travelling when a takeover or a cancel happens.
        if let Some(in_flight) = number(self, 11, "max_in_flight", 0, i64::from(MAX_IN_FLIGHT)) {
            bounds.max_in_flight = in_flight as u8;
        }
        if let Some(delay) = number(self, 12, "max_delay", 1, i64::from(MAX_DELAY_BOUND)) {
            bounds.max_delay = delay as u8;
        }
        world.bounds = bounds;
        for (index, flag) in [
            (3, &mut world.allow_cancel),
            (4, &mut world.restarted),
            (8, &mut world.heartbeat),
            (14, &mut world.allow_revise),
        ] {
            if let Some(value) = world_fields
                .get(index)
                .and_then(|v| self.bool(v, &name(&format!("`world.{}`", WORLD[index]))))
            {
                *flag = value;
            }
        }
        Some((targets, fronts))
    }

    /// `world.targets` as a list of kind names: the resources, at most 4.
    pub(crate) fn target_kinds(
        &mut self,
        list: &crate::parse::Value<'_>,
    ) -> Option<Vec<ResourceKind>> {
        let entries = self.array(list, &name("`world.targets`"))?;
        if entries.len() > 4 {
            self.error(
                list.span(),
                words(
                    "`world.targets` lists at most 4 resources",
                    "`world.targets` 最多列出 4 个资源",
                ),
            );
        }
        Some(
            entries
                .iter()
                .filter_map(|entry| {
                    self.choice(
                        entry,
                        &words("resource kind", "资源类型"),
                        &ResourceKind::ALL,
                        ResourceKind::name,
                    )
                })
                .take(4)
                .collect(),
        )
    }
}
