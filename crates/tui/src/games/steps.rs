//! Choosing a move step by step: the legal actions grouped by what the
//! player picks first, then next ([`GameScreen::picks`]), so a move is built
//! the way a player thinks of it and every path ends at a legal action.

use super::GameScreen;
use crate::session::Snapshot;

/// One part of a decision as the player picks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    /// The step's question, saying what the choice does ("Weaver (red):
    /// which level?").
    pub question: String,
    /// This action's answer to it; answers that read the same are one
    /// choice.
    pub answer: String,
    /// What the step picks, in a few words ("a level", "their card"), for
    /// the steps still to come.
    pub what: String,
}

impl Pick {
    /// A pick of `what`, answering `question` with `answer`.
    pub fn new(
        question: impl Into<String>,
        answer: impl Into<String>,
        what: impl Into<String>,
    ) -> Self {
        Pick {
            question: question.into(),
            answer: answer.into(),
            what: what.into(),
        }
    }
}

/// One choice at a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepOption {
    /// The choice in words.
    pub answer: String,
    /// The legal action (its place in the snapshot's list) this choice
    /// submits, when it is the last pick of its path.
    pub action: Option<usize>,
    /// The first legal action the choice leads to.
    pub first: usize,
}

/// Where a step-by-step choice stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The question of this step; `None` for a game that lists its legal
    /// actions at once.
    pub question: Option<String>,
    /// The choices.
    pub options: Vec<StepOption>,
    /// What is still to pick after each option's choice, per option.
    pub still: Vec<Vec<String>>,
}

/// The step reached by the answers `chosen`, among `snap`'s legal actions.
pub fn step<G: GameScreen>(snap: &Snapshot<G>, chosen: &[String]) -> Step {
    let depth = chosen.len();
    let mut question = None;
    let mut options: Vec<StepOption> = Vec::new();
    let mut still: Vec<Vec<String>> = Vec::new();
    for (i, action) in snap.legal.iter().enumerate() {
        let picks = G::picks(snap, action);
        if picks.is_empty() {
            // A game without picks: every legal action is a choice.
            if depth == 0 {
                options.push(StepOption {
                    answer: action.to_string(),
                    action: Some(i),
                    first: i,
                });
                still.push(Vec::new());
            }
            continue;
        }
        if picks.len() <= depth
            || picks
                .iter()
                .zip(chosen)
                .any(|(pick, answer)| &pick.answer != answer)
        {
            continue;
        }
        let here = &picks[depth];
        question.get_or_insert_with(|| here.question.clone());
        let last = picks.len() == depth + 1;
        match options.iter().position(|o| o.answer == here.answer) {
            Some(at) => {
                // Two paths read the same so far: the choice goes on to
                // the step where they differ.
                if !last {
                    options[at].action = None;
                }
            }
            None => {
                options.push(StepOption {
                    answer: here.answer.clone(),
                    action: last.then_some(i),
                    first: i,
                });
                still.push(picks[depth + 1..].iter().map(|p| p.what.clone()).collect());
            }
        }
    }
    Step {
        question,
        options,
        still,
    }
}
