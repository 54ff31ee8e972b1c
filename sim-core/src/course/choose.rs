//! Choosing on an exercise's items (mark steps, predict steps, quiz
//! options): the rules of [`Edit::Choose`], so that a front end sends the
//! learner's key or click on an item and draws the screen's items, and
//! makes no answer of its own. The items and how they are chosen are the
//! screen's ([`Item`], [`Choosing`]), so an edit reaches exactly what the
//! learner sees.

use std::str::FromStr;

use crate::course::editor::{Edit, EditRefused};
use crate::course::grade::Answer;
use crate::course::lesson::ExerciseKind;
use crate::course::screen::{Choosing, Item, Pick};
use crate::trace::Outcome;

/// `edit` (an [`Edit::Choose`]) applied to `now`, the answer in the making
/// (`None`: nothing chosen yet), on the screen's `items` chosen as
/// `choosing` says. The answer comes back with its items in index order,
/// as an answers file writes them.
pub(crate) fn choose_item(
    kind: &ExerciseKind,
    items: &[Item],
    choosing: &Choosing,
    now: Option<Answer>,
    edit: &Edit,
) -> Result<Answer, EditRefused> {
    let Edit::Choose { item, value } = edit else {
        return Err(EditRefused::NoSuchPlace);
    };
    let item = *item;
    if !items.iter().any(|shown| shown.index == item) {
        return Err(EditRefused::NoSuchPlace);
    }
    let offered = |value: &str| choosing.choices.iter().any(|c| c.value == value);
    match (choosing.pick, value.as_deref()) {
        (Pick::Each, Some(value)) if !offered(value) => return Err(EditRefused::NotAllowed),
        (Pick::Any | Pick::One, Some(_)) => return Err(EditRefused::NotAllowed),
        _ => {}
    }
    Ok(match kind {
        ExerciseKind::Mark { .. } => {
            let mut marked = match now {
                Some(Answer::Mark(marked)) => marked,
                _ => Vec::new(),
            };
            toggle(&mut marked, item);
            Answer::Mark(marked)
        }
        ExerciseKind::Quiz { .. } => {
            let option = usize::try_from(item).map_err(|_| EditRefused::NoSuchPlace)?;
            let mut chosen = match now {
                Some(Answer::Quiz(chosen)) if choosing.pick == Pick::Any => chosen,
                _ => Vec::new(),
            };
            toggle(&mut chosen, option);
            Answer::Quiz(chosen)
        }
        ExerciseKind::Predict { .. } => {
            let mut predicted = match now {
                Some(Answer::Predict(predicted)) => predicted,
                _ => Vec::new(),
            };
            predicted.retain(|(at, _)| *at != item);
            if let Some(value) = value {
                let outcome = Outcome::from_str(value).map_err(|_| EditRefused::NotAllowed)?;
                predicted.push((item, outcome));
            }
            predicted.sort_by_key(|(at, _)| *at);
            Answer::Predict(predicted)
        }
        ExerciseKind::Design { .. } | ExerciseKind::Break { .. } | ExerciseKind::Sql { .. } => {
            return Err(EditRefused::NoSuchPlace);
        }
    })
}

/// `item` taken out of `chosen` if it is there, else put in; `chosen` kept
/// in order and without repeats (a kept answer may have come unordered).
fn toggle<T: Ord>(chosen: &mut Vec<T>, item: T) {
    chosen.sort();
    chosen.dedup();
    match chosen.binary_search(&item) {
        Ok(at) => {
            chosen.remove(at);
        }
        Err(at) => chosen.insert(at, item),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::Lang;
    use crate::course::screen::tests::LESSON;
    use crate::course::session::tests::NAP;
    use crate::course::{Act, AnswerError, CourseError, CourseSession, Edit, EditRefused};

    /// The nap with a prediction asked on steps 2 and 4.
    fn nap_with_predict() -> String {
        format!(
            r#"{NAP}
[[exercises]]
id = "guess"
kind = "predict"
concepts = ["C01"]
scenario = "nap"
steps = [2, 4]
prompt = {{ en = "Guess.", zh = "猜。" }}
hints = [{{ en = "a", zh = "甲" }}, {{ en = "b", zh = "乙" }}]
takeaway = {{ en = "Done.", zh = "完成。" }}
"#
        )
    }

    fn course() -> Result<CourseSession, CourseError> {
        CourseSession::from_sources(&[("one", LESSON), ("nap", &nap_with_predict())])
    }

    fn choose(item: u32, value: Option<&str>) -> Act {
        Act::Edit {
            edit: Edit::Choose {
                item,
                value: value.map(str::to_owned),
            },
        }
    }

    /// The answer in the making the screen shows after `act`.
    fn answer_after(
        course: &mut CourseSession,
        lesson: &str,
        id: &str,
        act: &Act,
    ) -> Result<Value, CourseError> {
        Ok(course.act(lesson, id, act, Lang::En)?.answer)
    }

    #[test]
    fn choosing_a_mark_step_toggles_it_and_keeps_the_answer() -> Result<(), CourseError> {
        let mut course = course()?;
        let opened = course.act("nap", "mark", &Act::Open, Lang::En)?;
        let steps: Vec<u32> = opened.items.iter().map(|i| i.index).collect();
        let (&first, &last) = (steps.first().unwrap(), steps.last().unwrap());
        assert_ne!(first, last, "the nap asks about more than one write");
        answer_after(&mut course, "nap", "mark", &choose(last, None))?;
        let both = answer_after(&mut course, "nap", "mark", &choose(first, None))?;
        assert_eq!(both, json!([first, last]), "in index order");
        assert!(course.last_answer("nap", "mark").is_some());
        let screen = course.act("nap", "mark", &choose(last, None), Lang::En)?;
        assert_eq!(screen.answer, json!([first]));
        let chosen: Vec<(u32, bool, &str)> = (screen.items.iter())
            .map(|i| (i.index, i.chosen, i.sign.as_str()))
            .collect();
        assert!(chosen.contains(&(first, true, "●")));
        assert!(chosen.contains(&(last, false, "○")));
        // Emptied: the screen shows it, the last answer kept stays.
        let emptied = answer_after(&mut course, "nap", "mark", &choose(first, None))?;
        assert_eq!(emptied, json!([]));
        assert_eq!(
            course.last_answer("nap", "mark"),
            Some(crate::course::Answer::Mark(vec![first]))
        );
        Ok(())
    }

    #[test]
    fn a_single_choice_quiz_chooses_one_option_and_a_multiple_one_toggles()
    -> Result<(), CourseError> {
        let mut course = course()?;
        answer_after(&mut course, "one", "pick", &choose(2, None))?;
        assert_eq!(
            answer_after(&mut course, "one", "pick", &choose(1, None))?,
            json!([1])
        );
        // Chosen again: it stays the one chosen.
        assert_eq!(
            answer_after(&mut course, "one", "pick", &choose(1, None))?,
            json!([1])
        );
        answer_after(&mut course, "one", "many", &choose(3, None))?;
        assert_eq!(
            answer_after(&mut course, "one", "many", &choose(0, None))?,
            json!([0, 3])
        );
        let screen = course.act("one", "many", &choose(3, None), Lang::En)?;
        assert_eq!(screen.answer, json!([0]));
        let signs: Vec<(u32, &str)> = (screen.items.iter())
            .map(|i| (i.index, i.sign.as_str()))
            .collect();
        assert!(signs.contains(&(0, "[x]")) && signs.contains(&(3, "[ ]")));
        Ok(())
    }

    #[test]
    fn a_prediction_sets_and_clears_a_steps_value() -> Result<(), CourseError> {
        let mut course = course()?;
        answer_after(&mut course, "nap", "guess", &choose(4, Some("rejected")))?;
        let both = answer_after(&mut course, "nap", "guess", &choose(2, Some("ok")))?;
        assert_eq!(both, json!({"2": "ok", "4": "rejected"}));
        let changed = course.act("nap", "guess", &choose(4, Some("noop")), Lang::En)?;
        assert_eq!(changed.answer, json!({"2": "ok", "4": "noop"}));
        let item = changed.items.iter().find(|i| i.index == 4).unwrap();
        assert_eq!((item.value, item.sign.as_str()), (Some("noop"), "n"));
        let cleared = course.act("nap", "guess", &choose(2, None), Lang::En)?;
        assert_eq!(cleared.answer, json!({"4": "noop"}));
        let item = cleared.items.iter().find(|i| i.index == 2).unwrap();
        assert!(!item.chosen && item.value.is_none() && item.sign == "?");
        Ok(())
    }

    #[test]
    fn no_such_item_or_a_value_not_offered_is_refused_and_changes_nothing()
    -> Result<(), CourseError> {
        let mut course = course()?;
        answer_after(&mut course, "nap", "guess", &choose(2, Some("ok")))?;
        answer_after(&mut course, "one", "many", &choose(1, None))?;
        use EditRefused::{NoSuchPlace, NotAllowed};
        let refused = [
            // Step 3 is not asked; 99 is no step.
            ("nap", "guess", choose(3, Some("ok")), NoSuchPlace),
            ("nap", "guess", choose(99, None), NoSuchPlace),
            ("nap", "guess", choose(2, Some("exploded")), NotAllowed),
            // A claim is no step to mark here.
            ("nap", "mark", choose(0, None), NoSuchPlace),
            ("nap", "mark", choose(4, Some("marked")), NotAllowed),
            ("one", "many", choose(4, None), NoSuchPlace),
            ("one", "pick", choose(0, Some("ok")), NotAllowed),
        ];
        for (lesson, id, act, why) in refused {
            let before = course.act(lesson, id, &Act::Open, Lang::En)?;
            let got = course.act(lesson, id, &act, Lang::En);
            assert_eq!(got, Err(CourseError::Edit(why)), "{lesson}/{id} {act:?}");
            assert_eq!(course.act(lesson, id, &Act::Open, Lang::En)?, before);
        }
        Ok(())
    }

    #[test]
    fn handing_in_the_answer_in_the_making_grades_as_handing_it_in_whole() -> Result<(), CourseError>
    {
        let cases: [(&str, &str, Vec<Act>, Value); 3] = [
            ("nap", "mark", vec![choose(4, None)], json!([4])),
            (
                "nap",
                "guess",
                vec![choose(2, Some("ok")), choose(4, Some("ok"))],
                json!({"2": "ok", "4": "ok"}),
            ),
            (
                "one",
                "many",
                vec![choose(2, None), choose(0, None)],
                json!([0, 2]),
            ),
        ];
        for (lesson, id, edits, whole) in cases {
            let mut edited = course()?;
            for edit in &edits {
                edited.act(lesson, id, edit, Lang::En)?;
            }
            let made = edited.act(lesson, id, &Act::HandIn { answer: None }, Lang::En)?;
            let mut explicit = course()?;
            let handed = explicit.act(
                lesson,
                id,
                &Act::HandIn {
                    answer: Some(whole),
                },
                Lang::En,
            )?;
            assert_eq!(made, handed, "{lesson}/{id}");
            assert_eq!(edited.progress(), explicit.progress(), "{lesson}/{id}");
            assert!(made.feedback.is_some() && made.tries == 1);
        }
        // Nothing chosen: refused as an empty answer is, no try counted.
        let mut course = course()?;
        let nothing = course.act("nap", "mark", &Act::HandIn { answer: None }, Lang::En);
        assert_eq!(
            nothing,
            Err(CourseError::Answer(AnswerError::Empty("mark")))
        );
        assert_eq!(course.act("nap", "mark", &Act::Open, Lang::En)?.tries, 0);
        Ok(())
    }

    #[test]
    fn the_json_form_of_a_choice_and_of_a_hand_in_without_an_answer() {
        let act: Act = serde_json::from_value(
            json!({"act": "edit", "edit": {"edit": "choose", "item": 3, "value": "ok"}}),
        )
        .unwrap();
        assert_eq!(act, choose(3, Some("ok")));
        let toggled: Act =
            serde_json::from_value(json!({"act": "edit", "edit": {"edit": "choose", "item": 3}}))
                .unwrap();
        assert_eq!(toggled, choose(3, None));
        for text in [
            json!({"act": "hand_in"}),
            json!({"act": "hand_in", "answer": null}),
        ] {
            let act: Act = serde_json::from_value(text).unwrap();
            assert_eq!(act, Act::HandIn { answer: None });
        }
        let whole: Act = serde_json::from_value(json!({"act": "hand_in", "answer": [1]})).unwrap();
        assert_eq!(
            whole,
            Act::HandIn {
                answer: Some(json!([1]))
            }
        );
    }
}
