//! The lobby: hosting a table, joining or watching one, the proposal,
//! the acceptances and the genesis (SPEC 4.5).

use super::*;

impl<G: crate::NetGame> Node<G> {
    /// Stop. A joiner still in the lobby first tells the host, so its seat
    /// frees at once rather than when the host gives up on it.
    pub(super) fn shutdown(&mut self) {
        if self.leaving.is_some() {
            return;
        }
        if let Stage::Join(j) = &self.stage
            && self.swarm.is_connected(&j.host)
        {
            let request = LobbyRequest::Leave {
                lobby: j.ticket.lobby,
            };
            let host = j.host;
            self.ask(host, request, Ask::Leave);
            self.leaving = Some(Instant::now() + LEAVE_GRACE);
            return;
        }
        self.stop = Some(Ok(()));
    }

    /// The host frees the seats of joiners that stopped repeating `Join`
    /// (crashed, or lost their connection for good).
    pub(super) fn evict_silent_joiners(&mut self, now: Instant) {
        let Stage::Host(host) = &mut self.stage else {
            return;
        };
        let me = self.me;
        let timeout = self.cfg.timing.lobby_timeout;
        let before = host.members.len();
        host.members
            .retain(|m| m.peer == me || now.saturating_duration_since(m.seen) < timeout);
        let silent = before - host.members.len();
        let lapsed = host.evict_laggards(me, now, timeout);
        if silent + lapsed == 0 {
            return;
        }
        host.withdraw_proposal();
        let (filled, seats) = (host.members.len() as u8, host.info.seats);
        if silent > 0 {
            self.note(format!("{silent} silent joiner(s) lost their seat"));
        }
        if lapsed > 0 {
            self.note(format!(
                "{lapsed} joiner(s) did not accept the proposal within {} s and lost their seat",
                timeout.as_secs_f64()
            ));
        }
        self.emit(NetEvent::Lobby { filled, seats });
    }

    pub(super) fn start(&mut self, role: Role<G>) -> Result<(), NetError> {
        match role {
            Role::Host {
                seats,
                options,
                stall_timeout_ms,
            } => {
                // The same check as a proposal's, before any lobby opens:
                // terms that cannot start a game fail here, whatever front
                // end hosts (the command line, the start menu, a test).
                roundtable_table::genesis::check_terms::<G>(seats, &options)
                    .map_err(|e| NetError::Lobby(format!("{}: {e}", G::NAME)))?;
                check_stall(
                    &self.cfg.stall_timeout_bounds_ms,
                    "requested",
                    stall_timeout_ms,
                )?;
                let info = LobbyInfo {
                    protocol: roundtable_table::genesis::PROTOCOL_VERSION,
                    game: G::NAME.to_owned(),
                    options: encode(&options),
                    seats,
                    host: self.identity.public(),
                    host_name: self.cfg.name.clone(),
                    stall_timeout_ms,
                    nonce: random_bytes::<32>()?,
                };
                let lobby = info.id();
                let chain = self.chain_for(&lobby)?;
                self.save_stall(&lobby, stall_timeout_ms)?;
                let seat = SeatInfo {
                    key: self.identity.public(),
                    name: self.cfg.name.clone(),
                    chain_commitment: chain.commitment(),
                    chain_length: chain.length(),
                };
                self.stage = Stage::Host(Box::new(HostLobby {
                    info,
                    lobby,
                    options,
                    chain,
                    members: vec![Member {
                        peer: self.me,
                        seat,
                        addrs: Vec::new(),
                        seen: Instant::now(),
                    }],
                    proposal: None,
                    acceptances: BTreeMap::new(),
                    ticket_emitted: None,
                    ticket_due: Instant::now() + Duration::from_millis(300),
                    announce_counter: 0,
                    proposed_at: Instant::now(),
                    lapsed: HashSet::new(),
                }));
                self.emit(NetEvent::Lobby { filled: 1, seats });
                Ok(())
            }
            Role::Join { ticket } => {
                if !self.cfg.data_dir.unfinished().contains(&ticket.lobby)
                    && !self.cfg.data_dir.transcript_path(&ticket.lobby).exists()
                {
                    self.start_join(ticket)
                } else {
                    self.resume(ticket.lobby, Some(ticket))
                }
            }
            Role::Watch { ticket } => {
                if self.cfg.data_dir.transcript_path(&ticket.lobby).exists() {
                    return self.resume(ticket.lobby, Some(ticket));
                }
                let host = ticket
                    .host_peer()
                    .ok_or(NetError::Lobby("bad host key".into()))?;
                self.dial_ticket(&ticket, host);
                self.cfg
                    .data_dir
                    .save_ticket(&ticket.lobby, &ticket.encode())?;
                self.stage = Stage::Watch(Box::new(WatchLobby {
                    ticket,
                    host,
                    seated: Vec::new(),
                }));
                Ok(())
            }
            Role::Resume { lobby } => {
                let ticket = self
                    .cfg
                    .data_dir
                    .ticket(&lobby)
                    .and_then(|t| Ticket::decode(&t).ok());
                self.resume(lobby, ticket)
            }
        }
    }

    pub(super) fn chain_for(&self, lobby: &LobbyId) -> Result<ChainSecret, NetError> {
        let seed = self.cfg.data_dir.chain_seed(lobby)?;
        ChainSecret::new(seed, DEFAULT_CHAIN_LENGTH).map_err(|e| NetError::Random(e.to_string()))
    }

    pub(super) fn save_stall(&self, lobby: &LobbyId, ms: u64) -> Result<(), NetError> {
        write_durably(
            &self.cfg.data_dir.game_dir(lobby).join("stall_timeout_ms"),
            ms.to_string().as_bytes(),
        )
    }

    pub(super) fn load_stall(&self, lobby: &LobbyId) -> u64 {
        std::fs::read_to_string(self.cfg.data_dir.game_dir(lobby).join("stall_timeout_ms"))
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or_else(|| Config::default().stall_timeout_ms)
    }

    /// The table of the lobby's game, with the stall timeout its host set.
    pub(super) fn table_for(
        &self,
        lobby: &LobbyId,
        genesis: roundtable_table::Genesis,
        local: Option<roundtable_table::Local>,
    ) -> Result<Table<G>, NetError> {
        let config = Config {
            stall_timeout_ms: self.load_stall(lobby),
            ..Config::default()
        };
        Ok(Table::new(genesis, local, config)?)
    }

    pub(super) fn dial_ticket(&mut self, ticket: &Ticket, host: PeerId) {
        for addr in &ticket.addrs {
            self.swarm.add_peer_address(host, addr.clone());
        }
        let _ = self.swarm.dial(
            DialOpts::peer_id(host)
                .addresses(ticket.addrs.clone())
                .build(),
        );
    }

    pub(super) fn start_join(&mut self, ticket: Ticket) -> Result<(), NetError> {
        if ticket.game != G::NAME {
            return Err(NetError::Lobby(format!(
                "the ticket is for {:?}, not {}",
                ticket.game,
                G::NAME
            )));
        }
        let host = ticket
            .host_peer()
            .ok_or(NetError::Lobby("bad host key".into()))?;
        if host == self.me {
            return Err(NetError::Lobby("this is your own table".into()));
        }
        self.cfg
            .data_dir
            .save_ticket(&ticket.lobby, &ticket.encode())?;
        // The chain seed is saved (and synced) before its commitment leaves
        // this machine.
        let chain = self.chain_for(&ticket.lobby)?;
        let seat = SeatInfo {
            key: self.identity.public(),
            name: self.cfg.name.clone(),
            chain_commitment: chain.commitment(),
            chain_length: chain.length(),
        };
        self.dial_ticket(&ticket, host);
        self.stage = Stage::Join(Box::new(JoinLobby {
            ticket,
            host,
            info: None,
            seat,
            accepted: None,
            filled: 0,
            seated: Vec::new(),
        }));
        Ok(())
    }

    pub(super) fn our_addrs(&self) -> Vec<Multiaddr> {
        let announce_direct = self.cfg.announce_direct;
        crate::ticket::reachable_first(
            self.me,
            self.swarm
                .external_addresses()
                .cloned()
                .chain(self.listen_addrs.iter().cloned())
                .filter(|a| announce_direct || crate::slots::Circuit::of(a).is_some()),
        )
    }

    pub(super) fn maybe_emit_ticket(&mut self, now: Instant) {
        let addrs = self.our_addrs();
        let Stage::Host(host) = &mut self.stage else {
            return;
        };
        if now < host.ticket_due || addrs.is_empty() {
            return;
        }
        let ticket = Ticket {
            lobby: host.lobby,
            game: G::NAME.to_owned(),
            host: host.info.host,
            addrs,
        };
        if host.ticket_emitted.as_ref() == Some(&ticket) {
            return;
        }
        host.ticket_emitted = Some(ticket.clone());
        let lobby = host.lobby;
        let saved = self.cfg.data_dir.save_ticket(&lobby, &ticket.encode());
        self.note_unsaved("the ticket", saved);
        self.emit(NetEvent::Ticket(ticket));
    }

    pub(super) fn announce(&mut self) {
        let Stage::Host(host) = &mut self.stage else {
            return;
        };
        let Some(ticket) = &host.ticket_emitted else {
            return;
        };
        host.announce_counter += 1;
        let announce = Announce::sign(
            host.info.clone(),
            host.members.len() as u8,
            ticket.encode(),
            host.announce_counter,
            &self.identity,
        );
        // Nobody listening is the normal case; an announcement is not
        // worth queueing.
        let _ = self
            .swarm
            .behaviour_mut()
            .gossipsub
            .publish(self.lobby_topic.clone(), encode(&announce));
    }

    pub(super) fn send_join(&mut self) {
        let Stage::Join(j) = &self.stage else { return };
        if self.asks.values().any(|a| *a == Ask::Join) {
            return;
        }
        let request = LobbyRequest::Join {
            lobby: j.ticket.lobby,
            seat: j.seat.clone(),
            addrs: self.our_addrs().iter().map(Multiaddr::to_vec).collect(),
        };
        let host = j.host;
        self.ask(host, request, Ask::Join);
    }

    /// Send a lobby request, remembering what it asked so that its answer
    /// (or failure) can be told apart.
    pub(super) fn ask(&mut self, peer: PeerId, request: LobbyRequest, ask: Ask) {
        let id = self
            .swarm
            .behaviour_mut()
            .lobby
            .send_request(&peer, Ok(request));
        self.asks.insert(id, ask);
    }

    pub(super) fn send_watch(&mut self) {
        let Stage::Watch(w) = &self.stage else { return };
        if self.asks.values().any(|a| *a == Ask::Watch) {
            return;
        }
        let request = LobbyRequest::Watch {
            lobby: w.ticket.lobby,
        };
        let host = w.host;
        self.ask(host, request, Ask::Watch);
    }

    /// Ask the ticket's host again when connected to it, else dial it.
    fn ask_or_dial(&mut self, host: PeerId, ticket: &Ticket, ask: fn(&mut Self)) {
        if self.swarm.is_connected(&host) {
            ask(self);
        } else {
            self.dial_ticket(ticket, host);
        }
    }

    pub(super) fn lobby_retry(&mut self) -> Result<(), NetError> {
        match &self.stage {
            Stage::Join(_) if self.leaving.is_some() => {}
            Stage::Join(j) => {
                let (host, ticket) = (j.host, j.ticket.clone());
                self.ask_or_dial(host, &ticket, Self::send_join);
            }
            Stage::Watch(w) => {
                let (host, ticket) = (w.host, w.ticket.clone());
                self.ask_or_dial(host, &ticket, Self::send_watch);
            }
            Stage::Host(host) => {
                let Some(proposal) = host.proposal.clone() else {
                    return Ok(());
                };
                let lobby = host.lobby;
                let waiting: Vec<PeerId> = host
                    .members
                    .iter()
                    .filter(|m| {
                        m.peer != self.me
                            && proposal
                                .seat_of(&m.seat.key)
                                .is_some_and(|s| !host.acceptances.contains_key(&s.0))
                    })
                    .map(|m| m.peer)
                    .collect();
                for peer in waiting {
                    if self.asks.values().any(|a| *a == Ask::Propose(peer)) {
                        continue;
                    }
                    let request = LobbyRequest::Propose {
                        lobby,
                        proposal: proposal.clone(),
                    };
                    self.ask(peer, request, Ask::Propose(peer));
                }
            }
            Stage::Play(play) => {
                let pending: Vec<(PeerId, LobbyRequest)> = play
                    .start_pending
                    .iter()
                    .map(|(p, r)| (*p, r.clone()))
                    .collect();
                for (peer, request) in pending {
                    if self.asks.values().any(|a| *a == Ask::Start(peer)) {
                        continue;
                    }
                    self.ask(peer, request, Ask::Start(peer));
                }
            }
            Stage::Idle => {}
        }
        Ok(())
    }

    /// Every seat's addresses as we know them (for Start and Started).
    pub(super) fn peer_list(me: PeerId, ours: &[Multiaddr], play: &Play<G>) -> Vec<PeerAddrs> {
        play.table
            .genesis()
            .proposal
            .seats
            .iter()
            .map(|s| {
                let peer = peer_id_of(&s.key);
                let addrs = if peer == Some(me) {
                    ours.to_vec()
                } else {
                    peer.and_then(|p| play.peer_addrs.get(&p).cloned())
                        .unwrap_or_default()
                };
                PeerAddrs {
                    key: s.key,
                    addrs: addrs
                        .iter()
                        .take(MAX_ADDRS)
                        .map(Multiaddr::to_vec)
                        .collect(),
                }
            })
            .collect()
    }

    pub(super) fn on_lobby_request(
        &mut self,
        peer: PeerId,
        request: LobbyRequest,
    ) -> Result<LobbyResponse, NetError> {
        let refuse = |reason: &str| LobbyResponse::Refused {
            reason: reason.to_owned(),
        };
        let ours = self.our_addrs();
        let me = self.me;
        let is_join = matches!(request, LobbyRequest::Join { .. });
        match (&mut self.stage, request) {
            (Stage::Host(host), LobbyRequest::Join { lobby, seat, addrs }) => {
                if lobby != host.lobby {
                    return Ok(refuse("no such table here"));
                }
                if host.lapsed.contains(&peer) {
                    return Ok(refuse(
                        "you did not accept the proposal in time; your seat went to others",
                    ));
                }
                if peer_id_of(&seat.key) != Some(peer) {
                    return Ok(refuse("the seat's key is not the sender's key"));
                }
                if let Some(keys) = &self.cfg.seat_keys
                    && !keys.contains(&seat.key)
                {
                    return Ok(refuse("this table is for other players"));
                }
                if seat.name.len() > MAX_NAME_BYTES || seat.name.chars().any(char::is_control) {
                    return Ok(refuse(
                        "the display name is too long or has control characters",
                    ));
                }
                if seat.chain_length != DEFAULT_CHAIN_LENGTH {
                    return Ok(refuse("the chain length is not the game's"));
                }
                let addrs = addrs_from_bytes(peer, &addrs);
                let seen = Instant::now();
                if let Some(m) = host.members.iter_mut().find(|m| m.peer == peer) {
                    if host.proposal.is_none() {
                        m.seat = seat;
                    }
                    m.addrs = addrs;
                    m.seen = seen;
                } else if host.members.len() >= usize::from(host.info.seats) {
                    return Ok(refuse("the table is full"));
                } else {
                    host.members.push(Member {
                        peer,
                        seat,
                        addrs,
                        seen,
                    });
                }
                let filled = host.members.len() as u8;
                let response = LobbyResponse::Welcome {
                    info: host.info.clone(),
                    filled,
                    seated: host.seated(),
                };
                let seats = host.info.seats;
                let proposed = host.proposal.is_some();
                self.emit(NetEvent::Lobby { filled, seats });
                // A joiner's retried request must not make a second proposal:
                // acceptances of the first would then be struck as bad.
                if filled == seats && !proposed {
                    self.propose()?;
                }
                Ok(response)
            }
            (Stage::Host(host), LobbyRequest::Leave { lobby }) => {
                let before = host.members.len();
                if lobby == host.lobby {
                    host.members.retain(|m| m.peer != peer || m.peer == me);
                }
                if host.members.len() != before {
                    host.withdraw_proposal();
                    let (filled, seats) = (host.members.len() as u8, host.info.seats);
                    self.emit(NetEvent::Lobby { filled, seats });
                }
                Ok(LobbyResponse::Ok)
            }
            (Stage::Host(host), LobbyRequest::Watch { lobby }) => {
                if lobby != host.lobby {
                    return Ok(refuse("no such table here"));
                }
                Ok(LobbyResponse::Welcome {
                    info: host.info.clone(),
                    filled: host.members.len() as u8,
                    seated: host.seated(),
                })
            }
            (Stage::Join(_), LobbyRequest::Propose { lobby, proposal }) => {
                self.on_proposal(peer, lobby, proposal)
            }
            (
                Stage::Join(j),
                LobbyRequest::Start {
                    lobby,
                    genesis,
                    peers,
                },
            ) => {
                if peer != j.host || lobby != j.ticket.lobby {
                    return Ok(refuse("not from this table's host"));
                }
                self.on_genesis(genesis, &peers)?;
                Ok(LobbyResponse::Ok)
            }
            (Stage::Play(play), LobbyRequest::Join { lobby, .. })
            | (Stage::Play(play), LobbyRequest::Watch { lobby }) => {
                if lobby != play.lobby {
                    return Ok(refuse("no such table here"));
                }
                // SPEC 4.5: `Join` is answered for a seated peer only (it
                // missed `Start`); anyone else may `Watch`.
                if is_join && !play.seat_peers.contains(&peer) {
                    return Ok(refuse("the game has started and has no seat for you"));
                }
                let genesis = play.table.genesis().clone();
                let peers = Self::peer_list(me, &ours, play);
                Ok(LobbyResponse::Started { genesis, peers })
            }
            (Stage::Play(_), LobbyRequest::Start { .. } | LobbyRequest::Propose { .. }) => {
                Ok(LobbyResponse::Ok)
            }
            _ => Ok(refuse("not now")),
        }
    }

    /// The host's lobby is full: propose.
    pub(super) fn propose(&mut self) -> Result<(), NetError> {
        let Stage::Host(host) = &mut self.stage else {
            return Ok(());
        };
        let infos = host.members.iter().map(|m| m.seat.clone()).collect();
        let nonce = match self.cfg.genesis_nonce {
            Some(fixed) => fixed,
            None => random_bytes::<32>()?,
        };
        let proposal = match Proposal::new::<G>(&host.options, infos, nonce) {
            Ok(p) => p,
            Err(e) => {
                // A joiner's seat made the proposal invalid (a weak key):
                // drop the latest joiner and wait for another.
                host.members.pop();
                let _ = self
                    .events
                    .try_send(NetEvent::Note(format!("proposal refused: {e}")));
                return Ok(());
            }
        };
        let mine = proposal.accept(&self.identity)?;
        host.acceptances.insert(mine.seat, mine);
        host.proposal = Some(proposal);
        host.proposed_at = Instant::now();
        self.next_lobby = Instant::now();
        Ok(())
    }

    pub(super) fn on_proposal(
        &mut self,
        peer: PeerId,
        lobby: LobbyId,
        proposal: Proposal,
    ) -> Result<LobbyResponse, NetError> {
        let Stage::Join(j) = &mut self.stage else {
            return Ok(LobbyResponse::Ok);
        };
        let refuse = |reason: String| LobbyResponse::Refused { reason };
        if self.leaving.is_some() {
            return Ok(refuse("leaving the table".into()));
        }
        if peer != j.host || lobby != j.ticket.lobby {
            return Ok(refuse("not from this table's host".into()));
        }
        let Some(info) = &j.info else {
            return Ok(refuse("not welcomed yet".into()));
        };
        if let Err(e) = proposal.validate::<G>() {
            return Ok(refuse(format!("invalid proposal: {e}")));
        }
        if proposal.game != info.game
            || proposal.options != info.options
            || proposal.seats.len() != usize::from(info.seats)
        {
            return Ok(refuse("the proposal differs from the lobby's terms".into()));
        }
        if self
            .cfg
            .genesis_nonce
            .is_some_and(|fixed| fixed != proposal.nonce)
        {
            return Ok(refuse(
                "the proposal's genesis nonce is not the one this table must carry".into(),
            ));
        }
        if let Some(keys) = &self.cfg.seat_keys
            && proposal.seats.iter().any(|s| !keys.contains(&s.key))
        {
            return Ok(refuse(
                "the proposal seats a player this table is not for".into(),
            ));
        }
        if proposal.seat_of(&info.host).is_none() || !proposal.seats.contains(&j.seat) {
            return Ok(refuse(
                "the proposal does not seat the host and me as agreed".into(),
            ));
        }
        let acceptance = proposal.accept(&self.identity)?;
        j.accepted = Some(proposal);
        Ok(LobbyResponse::Accepted(acceptance))
    }

    /// A genesis from the host (Start) or any seat (Started): check it, then
    /// play.
    pub(super) fn on_genesis(
        &mut self,
        genesis: Genesis,
        peers: &[PeerAddrs],
    ) -> Result<(), NetError> {
        let (lobby, local) = match &self.stage {
            Stage::Join(j) => {
                let nonce_ok = self
                    .cfg
                    .genesis_nonce
                    .is_none_or(|fixed| fixed == genesis.proposal.nonce);
                if genesis.verify::<G>().is_err()
                    || !genesis.proposal.seats.contains(&j.seat)
                    || !nonce_ok
                {
                    self.note("refused a genesis that does not seat me as agreed");
                    return Ok(());
                }
                let seat = genesis
                    .proposal
                    .seat_of(&self.identity.public())
                    .ok_or(TableError::NotSeated)?;
                let chain = self.chain_for(&j.ticket.lobby)?;
                if let Some(info) = &j.info {
                    self.save_stall(&j.ticket.lobby, info.stall_timeout_ms)?;
                }
                (
                    j.ticket.lobby,
                    Some(Local {
                        seat,
                        identity: self.identity.clone(),
                        chain,
                    }),
                )
            }
            Stage::Watch(w) => {
                if genesis.verify::<G>().is_err()
                    || genesis.proposal.seat_of(&w.ticket.host).is_none()
                {
                    self.note("refused a genesis that does not seat the host");
                    return Ok(());
                }
                (w.ticket.lobby, None)
            }
            _ => return Ok(()),
        };
        self.begin_play(lobby, genesis, peers, local)
    }

    pub(super) fn on_lobby_response(
        &mut self,
        peer: PeerId,
        ask: Option<Ask>,
        response: LobbyResponse,
    ) -> Result<(), NetError> {
        if ask == Some(Ask::Leave) {
            self.stop = Some(Ok(()));
            return Ok(());
        }
        match (&mut self.stage, response) {
            (
                Stage::Join(j),
                LobbyResponse::Welcome {
                    info,
                    filled,
                    seated,
                },
            ) => {
                if peer != j.host || info.id() != j.ticket.lobby || info.game != G::NAME {
                    self.stop = Some(Err(NetError::Lobby(
                        "the host's terms do not match the ticket".into(),
                    )));
                    return Ok(());
                }
                if let Err(e) = check_stall(
                    &self.cfg.stall_timeout_bounds_ms,
                    "host's",
                    info.stall_timeout_ms,
                ) {
                    self.stop = Some(Err(e));
                    return Ok(());
                }
                let seats = info.seats;
                let changed = j.filled != filled || j.seated != seated;
                j.filled = filled;
                j.info = Some(info);
                j.seated = seated;
                if changed {
                    self.emit(NetEvent::Lobby { filled, seats });
                }
            }
            (
                Stage::Watch(w),
                LobbyResponse::Welcome {
                    info,
                    filled,
                    seated,
                },
            ) if info.id() == w.ticket.lobby => {
                let seats = info.seats;
                w.seated = seated;
                self.emit(NetEvent::Lobby { filled, seats });
            }
            (Stage::Join(_) | Stage::Watch(_), LobbyResponse::Started { genesis, peers }) => {
                self.on_genesis(genesis, &peers)?;
            }
            (Stage::Join(_) | Stage::Watch(_), LobbyResponse::Refused { reason }) => {
                self.note(format!("refused by the host: {reason}"));
                self.stop = Some(Err(NetError::Refused(reason)));
            }
            (Stage::Host(host), LobbyResponse::Accepted(a)) => {
                let Some(proposal) = &host.proposal else {
                    return Ok(());
                };
                let Some(member) = host.members.iter().find(|m| m.peer == peer) else {
                    return Ok(());
                };
                let Some(seat) = proposal.seat_of(&member.seat.key) else {
                    return Ok(());
                };
                if a.game_id != proposal.game_id() {
                    // An answer to a proposal withdrawn since (a seat left
                    // while it was out): not wrong, just late.
                    return Ok(());
                }
                let mut message = ACCEPT_DOMAIN.to_vec();
                message.extend_from_slice(&a.game_id.0);
                message.push(a.seat);
                if a.seat != seat.0 || member.seat.key.verify(&message, &a.signature).is_err() {
                    self.strike(peer, "sent a bad acceptance");
                    return Ok(());
                }
                host.acceptances.insert(a.seat, a);
                if host.acceptances.len() == proposal.seats.len() {
                    self.launch()?;
                }
            }
            (Stage::Play(play), LobbyResponse::Ok) => {
                if let Some(Ask::Start(p)) = ask {
                    play.start_pending.remove(&p);
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// The host has every acceptance: assemble the genesis, start, and tell
    /// every joiner.
    pub(super) fn launch(&mut self) -> Result<(), NetError> {
        let Stage::Host(host) = std::mem::replace(&mut self.stage, Stage::Idle) else {
            return Ok(());
        };
        let host = *host;
        let Some(proposal) = host.proposal.clone() else {
            return Ok(());
        };
        let acceptances: Vec<Acceptance> = host.acceptances.values().cloned().collect();
        let genesis = Genesis::assemble::<G>(proposal.clone(), &acceptances)?;
        let seat = proposal
            .seat_of(&self.identity.public())
            .ok_or(TableError::NotSeated)?;
        let local = Local {
            seat,
            identity: self.identity.clone(),
            chain: host.chain,
        };
        let peers: Vec<PeerAddrs> = proposal
            .seats
            .iter()
            .map(|s| {
                let addrs = match host.members.iter().find(|m| m.seat.key == s.key) {
                    Some(m) if m.peer == self.me => self.our_addrs(),
                    Some(m) => m.addrs.clone(),
                    None => Vec::new(),
                };
                PeerAddrs {
                    key: s.key,
                    addrs: addrs
                        .iter()
                        .take(MAX_ADDRS)
                        .map(Multiaddr::to_vec)
                        .collect(),
                }
            })
            .collect();
        self.begin_play(host.lobby, genesis.clone(), &peers, Some(local))?;
        if let Stage::Play(play) = &mut self.stage {
            for m in host.members.iter().filter(|m| m.peer != self.me) {
                play.start_pending.insert(
                    m.peer,
                    LobbyRequest::Start {
                        lobby: host.lobby,
                        genesis: genesis.clone(),
                        peers: peers.clone(),
                    },
                );
            }
        }
        self.next_lobby = Instant::now();
        Ok(())
    }
}

/// A stall timeout outside the peer's bounds
/// ([`NodeConfig::stall_timeout_bounds_ms`](crate::NodeConfig)) is refused:
/// a host's terms may carry any u64, and a timeout of a millisecond or of
/// centuries makes no game anyone can play (and overflowed deadlines).
fn check_stall(
    bounds: &std::ops::RangeInclusive<u64>,
    whose: &'static str,
    ms: u64,
) -> Result<(), NetError> {
    if bounds.contains(&ms) {
        return Ok(());
    }
    Err(NetError::StallTimeout {
        whose,
        ms,
        min: *bounds.start(),
        max: *bounds.end(),
    })
}
