//! Playing: entering a game (fresh or resumed from the log), carrying out
//! the table's outputs, the local bot, publishing, and keeping the peers'
//! addresses.

use super::*;

/// The longest a peer entering play waits for every seat's peer to be seen
/// subscribed to the table topic before it publishes and its bot plays
/// (SPEC 4.2, "No move is lost to an empty topic").
pub(crate) const MAX_READY_WAIT: Duration = Duration::from_secs(5);

/// How long a peer entering play waits for the seats' subscriptions, at a
/// table whose stall timeout is `stall`: [`MAX_READY_WAIT`], and at most a
/// quarter of the stall timeout. It used to be the stall timeout itself,
/// and a peer whose view of one subscription was lost (a closing
/// connection took it along, see `paths`) then held its moves back for as
/// long as the other seats wait before they claim it stalled: an honest
/// seat claimed, at a race with its own first move.
pub(crate) fn ready_wait(stall: Duration) -> Duration {
    MAX_READY_WAIT.min(stall / 4)
}

impl<G: crate::NetGame> Node<G> {
    /// Rebuild the table from the transcript log and carry on.
    pub(super) fn resume(
        &mut self,
        lobby: LobbyId,
        ticket: Option<Ticket>,
    ) -> Result<(), NetError> {
        let path = self.cfg.data_dir.transcript_path(&lobby);
        if !path.exists() {
            // Never got past the lobby: join again with the same chain.
            return match ticket {
                Some(t) => self.start_join(t),
                None => Err(NetError::NothingToResume(path)),
            };
        }
        let (log, read) = TranscriptLog::open(&path)?;
        if let Some(tail) = &read.tail {
            self.note(format!(
                "cut {} bytes from the log: {tail}",
                read.torn_bytes
            ));
        }
        let mut proposal = None;
        let mut acceptances = Vec::new();
        let mut envelopes = Vec::new();
        for frame in read.frames {
            match frame {
                Frame::Proposal(p) => proposal = Some(p),
                Frame::Acceptance(a) => acceptances.push(a),
                Frame::Envelope(e) => envelopes.push(e),
            }
        }
        let proposal = proposal.ok_or_else(|| NetError::NothingToResume(path.clone()))?;
        let genesis = Genesis::assemble::<G>(proposal, &acceptances)?;
        let local = match genesis.proposal.seat_of(&self.identity.public()) {
            Some(seat) => {
                let info = &genesis.proposal.seats[seat.index()];
                let seed = self.cfg.data_dir.chain_seed(&lobby)?;
                let chain = ChainSecret::new(seed, info.chain_length)
                    .map_err(|e| NetError::Random(e.to_string()))?;
                Some(Local {
                    seat,
                    identity: self.identity.clone(),
                    chain,
                })
            }
            None => None,
        };
        let mut peers: Vec<PeerAddrs> = Vec::new();
        for line in self.cfg.data_dir.peers(&lobby) {
            let mut parts = line.split_whitespace();
            let (Some(p), Some(a)) = (parts.next(), parts.next()) else {
                continue;
            };
            let (Ok(peer), Ok(addr)) = (p.parse::<PeerId>(), a.parse::<Multiaddr>()) else {
                continue;
            };
            if let Some(s) = genesis
                .proposal
                .seats
                .iter()
                .find(|s| peer_id_of(&s.key) == Some(peer))
            {
                match peers.iter_mut().find(|x| x.key == s.key) {
                    Some(x) if x.addrs.len() < MAX_ADDRS => x.addrs.push(addr.to_vec()),
                    Some(_) => {}
                    None => peers.push(PeerAddrs {
                        key: s.key,
                        addrs: vec![addr.to_vec()],
                    }),
                }
            }
        }
        if let Some(t) = &ticket
            && let Some(host) = t.host_peer()
        {
            for a in &t.addrs {
                self.swarm.add_peer_address(host, a.clone());
            }
        }
        let table = self.table_for(&lobby, genesis, local)?;
        self.enter_play(lobby, table, log, path, &peers, envelopes, true)
    }

    /// Start playing: the table exists and its log holds the genesis.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn enter_play(
        &mut self,
        lobby: LobbyId,
        table: Table<G>,
        log: TranscriptLog,
        transcript_path: PathBuf,
        peers: &[PeerAddrs],
        replay: Vec<Signed>,
        resumed: bool,
    ) -> Result<(), NetError> {
        let proposal = table.genesis().proposal.clone();
        // A bot made before the table was known (joining by ticket) plays
        // by the table's options from its first decision.
        let options = proposal.options::<G>()?;
        if let Controller::Bot(bot) = &mut self.controller {
            bot.table_options(&options);
        }
        let seat_peers = proposal
            .seats
            .iter()
            .map(|s| peer_id_of(&s.key))
            .collect::<Option<Vec<_>>>()
            .ok_or(NetError::Lobby("a seat's key is not an ed25519 key".into()))?;
        let names = proposal.seats.iter().map(|s| s.name.clone()).collect();
        let topic = crate::swarm::table_topic(&table.game_id());
        let topic_hash = topic.hash();
        self.swarm
            .behaviour_mut()
            .gossipsub
            .subscribe(&topic)
            .map_err(|e| NetError::Transport(format!("subscribing: {e}")))?;
        self.network_for_play(&topic, &seat_peers);
        let mut peer_addrs = HashMap::new();
        for p in peers {
            if let Some(peer) = peer_id_of(&p.key) {
                peer_addrs.insert(peer, addrs_from_bytes(peer, &p.addrs));
            }
        }
        for &peer in &seat_peers {
            if peer == self.me {
                continue;
            }
            // Every seat gets every publish and forward, whatever the mesh.
            self.swarm
                .behaviour_mut()
                .gossipsub
                .add_explicit_peer(&peer);
            let addrs = peer_addrs.get(&peer).cloned().unwrap_or_default();
            for a in &addrs {
                self.swarm.add_peer_address(peer, a.clone());
            }
            if !self.swarm.is_connected(&peer) {
                let _ = self
                    .swarm
                    .dial(DialOpts::peer_id(peer).addresses(addrs).build());
            }
        }
        let stall = self.load_stall(&lobby);
        let now = Instant::now();
        let logged = replay.iter().map(Signed::hash).collect();
        let mut play = Play {
            lobby,
            table,
            log: Some(log),
            transcript_path: transcript_path.clone(),
            topic,
            topic_hash,
            seat_peers,
            names,
            peer_addrs,
            subscribed: HashSet::new(),
            // A resumed peer does not wait for everyone: some may be gone
            // for good, and the stall claims that settle that must go out.
            ready: resumed,
            ready_deadline: now + ready_wait(Duration::from_millis(stall)),
            outbox: VecDeque::new(),
            sync_inflight: HashMap::new(),
            asked_at: HashMap::new(),
            compared_at: HashMap::new(),
            own_heads: Vec::new(),
            heads_changed_at: now,
            peer_heads: HashMap::new(),
            finished_at: None,
            result: None,
            failed: false,
            start_pending: HashMap::new(),
            logged,
            replaying: true,
            last_bot_position: None,
            bot_due: None,
            stall_timeout: Duration::from_millis(stall),
            resubscribe_due: None,
            resubscribed_at: None,
        };
        let now_ms = self.now_ms();
        let mut fed = 0usize;
        for envelope in replay {
            match play.table.handle_envelope(now_ms, envelope) {
                Ok(_) => fed += 1,
                Err(e) => self.emit(NetEvent::Note(format!("replaying the log: {e}"))),
            }
        }
        let game_id = play.table.game_id();
        let seat = play.table.local_seat();
        let names = play.names.clone();
        self.contact = Contact::new(now, play.table.position());
        self.stage = Stage::Play(Box::new(play));
        self.emit(NetEvent::Started {
            game_id,
            seat,
            names,
            transcript: transcript_path,
            options,
            stall_timeout: Duration::from_millis(stall),
        });
        if resumed {
            self.note(format!("resumed: {fed} envelopes read back from the log"));
        }
        self.drain_table()?;
        if let Stage::Play(play) = &mut self.stage {
            play.replaying = false;
            // Publish our latest envelopes again: a crash between the fsync
            // and the publish left them known to us alone. Copies others
            // have are dropped by gossipsub's duplicate cache; catch-up
            // repairs anything older.
            if let Some(seat) = play.table.local_seat() {
                let head = play.table.heads()[seat.index()];
                for e in play
                    .table
                    .envelopes_since(seat.0, head.saturating_sub(8), 8)
                {
                    play.outbox.push_back(e.encode());
                }
            }
            play.table.handle_timeout(now_ms);
        }
        self.save_peer_addrs();
        self.ask_every_seat();
        Ok(())
    }

    /// A fresh game: write the log's genesis and enter play.
    pub(super) fn begin_play(
        &mut self,
        lobby: LobbyId,
        genesis: Genesis,
        peers: &[PeerAddrs],
        local: Option<Local>,
    ) -> Result<(), NetError> {
        let path = self.cfg.data_dir.transcript_path(&lobby);
        let mut frames = vec![Frame::Proposal(genesis.proposal.clone())];
        frames.extend(genesis.acceptances.iter().cloned().map(Frame::Acceptance));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| NetError::Io {
                path: dir.to_owned(),
                source,
            })?;
        }
        let log = TranscriptLog::create(&path, &frames)?;
        let table = self.table_for(&lobby, genesis, local)?;
        self.enter_play(lobby, table, log, path, peers, Vec::new(), false)
    }

    /// Carry out the table's outputs in order. Returns whether there were any.
    pub(super) fn drain_table(&mut self) -> Result<bool, NetError> {
        let Stage::Play(play) = &mut self.stage else {
            return Ok(false);
        };
        let mut any = false;
        let mut events = Vec::new();
        while let Some(output) = play.table.poll_output() {
            any = true;
            match output {
                Output::Persist { envelope, sync } => {
                    if (play.replaying && !sync) || play.logged.contains(&envelope.hash()) {
                        continue;
                    }
                    if play.log.is_none() {
                        // The game had finished and its file is the canonical
                        // transcript; what the table still takes in (a late
                        // claim that makes it rewind) is logged in it again,
                        // and the next finish writes it canonical again.
                        play.log = Some(TranscriptLog::open(&play.transcript_path)?.0);
                    }
                    if let Some(log) = &mut play.log {
                        // An own envelope is synced before it is sent, so a
                        // crash can never make us sign another in its place.
                        log.append(&Frame::Envelope(envelope), sync)?;
                    }
                }
                Output::Broadcast(envelope) => {
                    if play.outbox.len() >= OUTBOX_CAPACITY {
                        play.outbox.pop_front();
                    }
                    play.outbox.push_back(envelope.encode());
                }
                Output::Applied {
                    position,
                    record,
                    events: ev,
                } => events.push(NetEvent::Applied {
                    position,
                    record,
                    events: ev,
                }),
                Output::Forfeited { seat, reason } => {
                    events.push(NetEvent::Forfeited { seat, reason })
                }
                Output::Violation(v) => {
                    play.failed = true;
                    play.finished_at = Some(Instant::now());
                    // The proof goes to every peer (SPEC 4.4, "A proven
                    // violation"): a peer the cheater showed nothing to, or
                    // that met it too late to judge, fails closed on the
                    // same proof instead of claiming this seat stopped.
                    // Catch-up carries it too, while this peer lingers.
                    for envelope in v.envelopes() {
                        if play.outbox.len() >= OUTBOX_CAPACITY {
                            play.outbox.pop_front();
                        }
                        play.outbox.push_back(envelope.encode());
                    }
                    events.push(NetEvent::Violation(v));
                }
                Output::Rewound { position } => {
                    play.last_bot_position = None;
                    events.push(NetEvent::Rewound { position });
                }
                Output::Finished(result) => {
                    let frames = play.table.transcript();
                    // Finished again after a rewind, the file is written
                    // again: it must be the game as it now ended.
                    let path = match play.log.take() {
                        Some(log) => log.finish(&frames)?,
                        None => TranscriptLog::open(&play.transcript_path)?
                            .0
                            .finish(&frames)?,
                    };
                    if let Some(copy) = &self.cfg.transcript_copy {
                        write_durably(copy, &transcript::encode_file(&frames))?;
                    }
                    let mut standings = result.standings.clone();
                    standings.sort_by_key(|s| (s.rank, s.seat));
                    let summary: Vec<String> = standings
                        .iter()
                        .map(|s| format!("#{} seat {} {} points", s.rank + 1, s.seat, s.score))
                        .collect();
                    self.cfg
                        .data_dir
                        .mark_done(&play.lobby, &format!("{}\n", summary.join("\n")))?;
                    play.result = Some(result.clone());
                    play.finished_at = Some(Instant::now());
                    events.push(NetEvent::Finished {
                        result,
                        transcript: self.cfg.transcript_copy.clone().unwrap_or(path),
                    });
                }
            }
        }
        let finished = play.finished_at.is_some();
        for e in events {
            self.emit(e);
        }
        if finished && any {
            // Tell everyone our heads now, so that peers that finished too
            // learn it without waiting for our heads to stand still.
            self.ask_every_seat();
        }
        Ok(any)
    }

    /// A bot in the local seat decides, when it is its turn.
    pub(super) fn bot_move(&mut self) -> bool {
        let Controller::Bot(bot) = &mut self.controller else {
            return false;
        };
        let Stage::Play(play) = &mut self.stage else {
            return false;
        };
        if !play.ready || play.failed || play.finished_at.is_some() {
            return false;
        }
        let Some(seat) = play.table.local_seat() else {
            return false;
        };
        if !play.table.awaits_decision(seat) {
            return false;
        }
        let position = play.table.position();
        if play.last_bot_position == Some(position) {
            return false;
        }
        let delay = self.cfg.timing.bot_delay;
        if !delay.is_zero() {
            match play.bot_due {
                Some((p, at)) if p == position => {
                    if Instant::now() < at {
                        return false;
                    }
                }
                _ => {
                    play.bot_due = Some((position, Instant::now() + delay));
                    return false;
                }
            }
        }
        // What the seat's own table opened of the private cards (nothing in
        // a game without them): a bot decides with what its seat knows.
        let knowledge = play.table.knowledge().cloned().unwrap_or_default();
        let mut legal = Vec::new();
        play.table
            .game()
            .legal_actions_with(seat, &knowledge, &mut legal);
        if legal.is_empty() {
            return false;
        }
        // The table's state, so that a search bot searches from it. Its
        // think time is its own budget, cut to a share of what the seat has
        // left on this table's turn clock (the time is the node's input, as
        // the table's is), so that however long the bot was made to think
        // and however late it starts, the table's clock never claims it;
        // and never longer than LONGEST_BOT_ANSWER, the silence this node's
        // peers can bear.
        // The node waits for it; on a multi-threaded runtime the other
        // nodes' tasks move off this thread meanwhile.
        let now = self.clock.elapsed().as_millis() as u64;
        let clock_limit = play
            .table
            .turn_clock()
            .map(|(_, claimable_at)| roundtable_bots::answer_limit(now, claimable_at));
        bot.answer_within(clock_limit.map_or(super::LONGEST_BOT_ANSWER, |limit| {
            limit.min(super::LONGEST_BOT_ANSWER)
        }));
        let game = play.table.game();
        let mut decide = || bot.choose_in(seat, game, &knowledge, &legal);
        let multi_threaded = tokio::runtime::Handle::try_current()
            .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
        let pick = if multi_threaded {
            tokio::task::block_in_place(decide)
        } else {
            decide()
        }
        .min(legal.len() - 1);
        play.last_bot_position = Some(position);
        let now = self.clock.elapsed().as_millis() as u64;
        match play.table.submit(now, legal[pick].clone()) {
            Ok(()) => true,
            Err(e) => {
                self.note(format!("the bot's move was refused: {e}"));
                false
            }
        }
    }

    pub(super) fn flush_outbox(&mut self) {
        let Stage::Play(play) = &mut self.stage else {
            return;
        };
        if !play.ready {
            return;
        }
        while let Some(bytes) = play.outbox.front() {
            match self
                .swarm
                .behaviour_mut()
                .gossipsub
                .publish(play.topic.clone(), bytes.clone())
            {
                Ok(_) | Err(PublishError::Duplicate) => {
                    play.outbox.pop_front();
                }
                // Nobody to send to yet, or every queue is full: keep it and
                // try again on the next subscription or tick. Gossipsub does
                // not keep a message it could not send, so we must.
                Err(PublishError::NoPeersSubscribedToTopic | PublishError::AllQueuesFull(_)) => {
                    break;
                }
                Err(e) => {
                    play.outbox.pop_front();
                    let _ = self
                        .events
                        .try_send(NetEvent::Note(format!("publish failed: {e}")));
                }
            }
        }
    }

    pub(super) fn redial(&mut self) {
        let Stage::Play(play) = &self.stage else {
            return;
        };
        if play.finished_at.is_some() {
            return;
        }
        let targets: Vec<(PeerId, Vec<Multiaddr>)> = play
            .seat_peers
            .iter()
            .filter(|p| **p != self.me)
            .map(|p| (*p, play.peer_addrs.get(p).cloned().unwrap_or_default()))
            .collect();
        for (peer, mut addrs) in targets {
            if !self.swarm.is_connected(&peer) {
                addrs.extend(self.circuits_to(peer));
                let _ = self
                    .swarm
                    .dial(DialOpts::peer_id(peer).addresses(addrs).build());
            }
        }
    }

    pub(super) fn save_peer_addrs(&mut self) {
        let Stage::Play(play) = &self.stage else {
            return;
        };
        let mut lines = Vec::new();
        for (peer, addrs) in &play.peer_addrs {
            for a in addrs {
                lines.push(format!("{peer} {a}"));
            }
        }
        lines.sort();
        let lobby = play.lobby;
        if lines != self.cfg.data_dir.peers(&lobby) {
            let saved = self.cfg.data_dir.save_peers(&lobby, &lines);
            self.note_unsaved("the peers' addresses", saved);
        }
        let ours: Vec<Multiaddr> = self
            .listen_addrs
            .iter()
            .filter(|a| !a.iter().any(|p| matches!(p, Protocol::P2pCircuit)))
            .cloned()
            .collect();
        if !ours.is_empty() && ours != self.cfg.data_dir.listen_addrs(&lobby) {
            let saved = self.cfg.data_dir.save_listen_addrs(&lobby, &ours);
            self.note_unsaved("the listen addresses", saved);
        }
    }

    /// A file that only helps a restart (`roundtable resume`) could not be
    /// saved: the game goes on, and the player is told what a restart will
    /// lack and why.
    pub(super) fn note_unsaved(&mut self, what: &str, saved: Result<(), NetError>) {
        if let Err(e) = saved {
            let line = format!("could not save {what} ({e}); a restart will go without");
            // Bounded: a few files, each with the few ways it can fail.
            if self.unsaved_noted.len() < 64 && self.unsaved_noted.insert(line.clone()) {
                self.note(line);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Whatever stall timeout a table chose within the bounds, a seat
        /// waiting for subscriptions plays long before the others may
        /// claim it: at most a quarter of the stall timeout.
        #[test]
        fn a_seat_waits_for_subscriptions_well_inside_the_stall_timeout(
            stall_ms in crate::STALL_TIMEOUT_BOUNDS_MS,
        ) {
            let stall = Duration::from_millis(stall_ms);
            let wait = ready_wait(stall);
            prop_assert!(wait * 4 <= stall);
            prop_assert!(wait <= MAX_READY_WAIT);
            prop_assert!(wait > Duration::ZERO);
        }
    }
}
