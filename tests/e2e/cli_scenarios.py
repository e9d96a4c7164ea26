# ruff: noqa: E501  (a scenario line is one command, as typed)
"""Each ruleset's CLI scenario: the commands a game master types in one session, as
text (one command a line, shell quoting; ``!`` marks a command the rules refuse, ``#`` a
comment). ``{sticker}`` is replaced by the code of a sticker in play. The language scans
(``test_cli_russian.py``, ``test_cli_words.py``) run them and read every line printed."""

from __future__ import annotations

import json
import shlex

from click.testing import Result
from tests.e2e.clitools import Run

SCENARIOS: dict[str, str] = {
    "warhammer-larp": """\
campaign create w --ruleset warhammer-larp --start 2026-06-13T08:00 --seed 1
character add K --name Karl --skill Carrier
character add H --name Hilda --skill Healer
character add H2 --name Hans --skill Healer
character add R --name Rustam --hits 3 --race human --age 34
character add B --name Boris --hits 3 --race dwarf --age 61
character add C --name Clara --hits 3
character add S --name Sven
character add p1 --name Pavel
character add p2 --name Petr
character add p3 --name Polina
character add p4 --name Prokhor
act check-kit --healer H --items hourglass_10min --items needle --items thread --items plaster --items bandages --items mask --items gloves --items mat_materials
act check-kit --healer H2 --items needle
act register-mat --id mat --healer H --length-cm 180 --width-cm 60
act register-hospital --id h1 --name Shallya --number 7 --tables id=t1 --beds id=b1 --beds id=b2 --beds id=b3 --beds id=b4 --location town
act open-journal --hospital h1 --journal night
act set-weather --raining
act lose-hits --character R --hits 3 --location "left arm"
act lose-hits --character B --hits 3 --location leg
act lose-hits --character C --hits 1
act support --supporter S --patient R
act stop-support --supporter S
act apply-bandage --healer H --patient B --bandages 3 --mat mat
act treat-light-wound --healer H --patient C --bandages 1 --mat mat
act get-up --patient C
act admit --hospital h1 --patient R --healer H
act start-operation --healer H --patient R --hospital h1 --table t1
act finish-operation --patient R --bed b1 --stitches location=arm --stitches location=arm --stitches location=arm
act move-patient --patient R --bed b2
query next-change --character R
query next-change --character B
timers
clock advance 40m
act sign-journal --hospital h1 --patient R
act correct-journal --hospital h1 --journal main --entry 1 --text "wound was on the right arm"
act penalize-hospital --hospital h1 --reason "entries missing"
!act take-journal --hospital h1 --taker S
act kill --character p4 --cause executed
act interact-corpse --actor S --corpse p4 --interaction search
act cure-by-other-means --patient B --means spell
act define-disease --code GF --name "Grey fever" --symptoms cough --penalties "cannot run" --contagious --course drip --course enema --course herbal_drink --course inhalation --course psychotherapy --course sedative --recipe salt --recipe "rat tail" --recipe mould --recipe ash --recipe bile
act define-disease --code RP --name "Red pox" --symptoms rash --lethal --minutes-to-death 60
act add-to-book --healer H --code GF --description "cough; course"
act lend-book --healer H --to H2
act take-back-book --healer H --to H2
act copy-description --healer H2 --source H --code GF
query disease-info --code GF --healer H
act register-lab --id L1 --name "Rat lab" --owner K
act draw-lab-quests --lab L1
act complete-lab-quest --lab L1 --quest 1 --reward 1
act make-stickers --lab L1 --disease GF --batches 3 --components salt --components "rat tail" --components mould --components ash --components bile
query lab-status --lab L1
act hand-stickers --to K --disease GF --count 3
act hand-stickers --to p3 --disease RP --count 2
query stickers --holder K
act wear --character p1 --items hooded_robe --items gloves --items plague_mask
act grant-protection --character p2 --kind immunity --diseases RP
act carrier-touch --carrier K --victim p1 --disease GF --count 1
act infect --character p3 --disease RP
act pass-sticker --actor p3 --victim p2 --disease RP
act start-recipe-experiment --lab L1 --disease RP --subject p3
act try-recipe --lab L1 --disease RP --components salt
!act pass-sticker --actor p2 --victim p1 --disease RP
act issue-certificate --kind epidemic --disease GF --holder K
act issue-certificate --kind outbreak --disease GF --holder K
act attach-stickers --certificate epi-1 --count 30 --source master
act attach-stickers --certificate out-2 --count 10 --source master
act hand-certificate --certificate out-2 --holder K
act register-location --id town --name Town --regional-master Olga
act start-outbreak --carrier K --certificate out-2 --place outdoor --announced --people character=p1,distance_m=1 --people character=p2,distance_m=4
act start-epidemic --carrier K --certificate epi-1 --location town --regional-master Olga --interval-minutes 30 --wave-stickers 10
act epidemic-wave --epidemic epi-1 --present p1 --present p2 --present p3
query epidemic-status
query epidemic-status --epidemic epi-1
act admit --hospital h1 --patient p2 --healer H
act record-anamnesis --hospital h1 --patient p2 --healer H
act diagnose --hospital h1 --patient p2 --healer H --disease GF
act start-disease-course --hospital h1 --patient p2 --healer H --bed b3 --diseases GF
act course-item --patient p2 --disease GF --item drip --minutes 5
act admit --hospital h1 --patient p3 --healer H
act record-disease-case --hospital h1 --patient p3 --healer H --anamnesis cough --diagnosis GF --course drip
act write-treatise --author H --topic "Grey fever" --question "its course" --pages 2
act cure-disease-by-other-means --patient p3 --disease RP --means potion
act record-eugenics --patient C --change "a troll's arm" --donor H2
act register-location --id mill --name Mill --wealth 5 --residents p1 --residents p2 --residents p3
act set-location-wealth --location mill --wealth 7 --cycle 1
act start-assault --location mill --army Reds
act start-looting --location mill --army Reds --commander-orders
act resident-acts --location mill --resident p1 --choice fled
act resident-acts --location mill --resident p2 --choice surrender --fate enslaved
query location-status --location mill
act army-leaves --location mill
!act form-army --location mill --army Guard
query sticker --code {sticker}
act finish-off --attacker S --carrier K --weapon melee --kills
clock advance 2h
query epidemic-status
""",
    "zone-larp": """\
campaign create z --ruleset zone-larp --start 2026-06-13T09:00
character add c1 --name Vasya --hits 2
character add c2 --name Gosha --hits 2
character add d1 --name Doctor --skill Healer
act issue-charsheet --character c1 --zones zone=head,state=damaged --zones zone=left_arm,state=damaged --zones zone=torso,state=infected
act issue-charsheet --character c2
query rehab-time --character c1
query may-do --character c1 --activity run
act strike --character c2 --zone torso --source shot
act apply-kit --character c2
act strike --character c2 --weapon pyrotechnics --zone left_leg
act declare-combat --ongoing
act start-operation --healer d1 --patient c2 --measure ordinary
query countdowns --character c2
query operation-options --patient c2
act strike --character c1 --weapon pyrotechnics --zone head
clock advance 6m
act arrive-hospital --patient c1 --staff administrator
act examine --patient c1 --staff chief_doctor
act expose-infection --character c1 --infection V1 --source canister
act identify-infection --patient c1 --staff medic
act instruct --patient c1 --staff medic --instruction rest
act inflict-trauma --character c1 --type physical --source monster --consequences limp
act install-implant --character c2 --name eye --zone head --mechanism regeneration
act damage-implant --character c2 --name eye
act repair-implant --character c2 --name eye --manufacturer Arasaka
act mark-zone --character c2 --zone left_leg --state damaged
act knock-out --character c2
!act stun --character c1
act sudden-state --character c1 --description hiccups --minutes 5
!act interact --actor c1 --target c2
query hospital-board
query memory --character c1
clock advance 1h
act discharge --patient c1 --payment money --amount 10 --staff administrator
act exclude --character c2 --reason cheating
!act appeal-exclusion --character c2
""",
    "dnd5e-injuries": """\
campaign create crypt --ruleset dnd5e-injuries --start 2026-06-13T20:00 --seed 7
character add a --name Aria --hits 40
character add o --name Orc --hits 15
character add m --name Mira --hits 30
act set-dnd-stats --character a --con 14 --proficiency 3 --level 5 --hp-max 40 --ac 16
act set-dnd-stats --character m --con 12 --proficiency 2 --level 3 --hp-max 30
act set-dnd-stats --character o --con 16 --cr 2 --hp-max 15 --ac 13 --enemy
query combat-caution --character a --damage 20
query injury-odds --character a --damage 2d6+3
query injury-odds --character a --damage 20 --critical
query injury-table --location legs --damage-type piercing --severity medium
act take-damage --character a --damage 20 --damage-type piercing --critical
act roll-injury --character a --location-roll 3
act take-damage --character m --damage 8 --damage-type slashing --attacker o
act roll-injury --character m --trigger zero_hp --damage 40 --damage-type fire
act fail-save --character m --effect poison --harmful --damage 6 --damage-type poison --ability con
act take-damage --character m --damage 30 --damage-type bludgeoning
act death-save --character m --natural 1
act start-turn --character a
act treat-injury --patient a --healer m --method medicine --check-total 15
act take-damage --character o --damage 9 --damage-type slashing --attacker a
act attempt-injury --actor a --target o --aim head --attack-bonus 5
""",
    "fantasy-server": """\
campaign create srv --ruleset fantasy-server --start 2026-06-13T09:00 --seed 3
character add c1 --name Rurik --hits 30
character add c2 --name Vesna --hits 30
character add c3 --name Gunnar --hits 30
act set-sheet --character c1 --stats STR=9 --stats REF=12 --stats MAG=14 --skills Smith
act set-sheet --character c2 --stats PER=8 --stats WIL=5
act register-item --item ring --name "Ring of might" --kind accessory --owner c1 --stat-bonus STR=2 --crit-created
act register-item --item amulet --name Amulet --kind accessory --owner c1 --stat-bonus STR=1 --stat-bonus REF=2 --crit-created
act equip-item --character c1 --item ring
query stats --character c1
query stats --character c1 --item amulet
act equip-item --character c1 --item amulet
act unequip-item --character c1 --item amulet
query item-status --item ring
act roll-check --character c1 --stat STR --threshold medium --roll 20
act roll-check --character c1 --stat REF --threshold hard --roll 1
act roll-contest --actor c1 --actor-stat STR --defender c2 --defender-stat PER --actor-roll 15 --defender-roll 5
query check-odds --character c1 --stat STR --threshold medium
act attempt-theft --actor c1 --victim c2 --thief-roll 10 --victim-roll 15
query theft-odds --actor c1 --victim c2
act pick-lock --actor c1 --roll 12
query lock-odds --actor c1
!act pick-lock --actor c1 --method explosives
act register-door --door d1 --reinforced
act resolve-fall --character c2 --movement-actions 4 --rolls 10 --rolls 9 --rolls 8 --rolls 7
query fall-odds --character c2 --movement-actions 2
act register-item --item sword --name Sword --kind weapon --owner c1 --resources name=ingot,amount=5 --resources name=leather,amount=3
act equip-item --character c1 --item sword
act start-combat --encounter e1 --participants c1 --participants c2
act log-item-critical --item sword
act log-item-critical --item sword
act log-item-critical --item sword
query repair-bill --item sword
act repair-item --actor c1 --item sword --roll 15
act end-combat --encounter e1
act torture-round --actor c1 --victim c2 --method physical --actor-roll 11 --victim-roll 10
act stop-torture --victim c2
act lose-hp --character c2 --amount 20
act heal-magically --patient c2 --healer c1 --amount 20
act heal-physically --patient c2 --healer c1 --amount 5
act heal-spiritually --patient c2 --healer c1
query mutation-risk --patient c2
act give-trauma --character c3 --trauma broken_ribs
query treatment-plan --patient c3 --trauma broken_ribs
act regenerate --character c2 --hours 8 --resting
act drink-potion --character c3 --heals 5
query addiction-status --character c3
act sneak-past --actor c1 --observers c2 --actor-roll 15 --observer-roll 5
act ambush --actor c1 --target c2 --mode melee
act leave-trace --scene s1 --trace t1 --visibility visible --description blood
act search-evidence --actor c2 --scene s1 --roll 15
act record-condition --character c3 --kind disease --days 2
act clear-condition --character c3 --kind disease
act record-death --character c3 --cause fall
""",
    "ide4-survival": """\
campaign create trek --ruleset ide4-survival --start 2026-06-13T06:00 --seed 11 --param check_resolver=band_table
character add vera --name Vera --hits 10
character add boris --name Boris --hits 10
character add gleb --name Gleb --hits 10
act survival-sheet --character vera --sex female --body-food-norm 800
act survival-sheet --character boris --sex male
query day
act morning --at 2026-06-13T06:30 --move-clock
act eat-meal --at 2026-06-13T07:30 --move-clock
act d100-check --character vera --skill survival --difficulty 3 --roll 42
query d100-odds --character vera --skill survival --difficulty 3
act drink --characters vera --ml 500
act start-march --pace fast --at 2026-06-13T08:00 --move-clock
act calm-event --events ambush --events outnumbered --at 2026-06-13T10:00 --move-clock
act poison-risk --characters boris --source dirty_water --difficulty 3 --outcome failure --at 2026-06-13T11:00 --move-clock
act treat-poisoning --character boris --method vomiting --outcome success
act expose --characters gleb --disease basic --difficulty 3 --outcome failure --at 2026-06-13T12:00 --move-clock
act set-load --characters vera --load overloaded
!act set-stress --character gleb --level stressed
act eat-meal --at 2026-06-13T13:20 --move-clock
act start-fight --characters boris --tokens 6
act spend-stamina --character boris --move attack
act end-fight --characters boris
act rest --characters vera --hours 1
act end-march --pace fast --check --at 2026-06-13T18:00 --move-clock
act eat-meal --at 2026-06-13T19:30 --move-clock
act make-camp --camp normal --damp
act plan-sleep
act go-to-sleep --camp normal --pick highest --at 2026-06-13T21:00 --move-clock
act end-day --at 2026-06-14T06:20 --move-clock
act gain-xp --characters vera --points 2
act calm-recover --characters boris --reason quiet_hours --hours 8
query recovery --character gleb
query diseases
query run-through
""",
}
#: What every scenario ends with: the log, the roster, each card, the countdowns, the journal.
AFTER = ["log", "character list", "timers", "journal", "records"]


def play(run: Run, ruleset: str, lang: str) -> list[tuple[str, Result]]:
    """Runs ``ruleset``'s scenario on a fresh database in ``lang``; every command's result,
    after checking that it was accepted or refused as the scenario says."""
    results: list[tuple[str, Result]] = []
    lines = [x for x in SCENARIOS[ruleset].splitlines() if x.strip() and not x.startswith("#")]
    for line in [*lines, *AFTER, "@cards"]:
        if line == "@cards":
            shown = json.loads(run("character", "list", "--json").stdout)
            for row in shown["characters"] if isinstance(shown, dict) else shown:
                command = f"character show {row['id']}"
                results.append((command, run(*shlex.split(command), lang=lang)))
            continue
        refused = line.startswith("!")
        command = line.lstrip("!")
        if "{sticker}" in command:
            held = json.loads(run("query", "stickers", "--json").stdout)
            command = command.replace("{sticker}", held["stickers"][0]["code"])
        result = run(*shlex.split(command), lang=lang)
        accepted = result.exit_code == 0
        assert accepted != refused, (command, result.exit_code, result.output, result.exception)
        results.append((command, result))
    return results


def typed(ruleset: str) -> set[str]:
    """Every word the scenario typed itself (names, item names, ids): data, not labels."""
    words: set[str] = set()
    for line in SCENARIOS[ruleset].splitlines():
        for arg in shlex.split(line.lstrip("!")) if line.strip() else []:
            words |= {w.lower() for w in arg.replace("=", " ").replace(",", " ").split()}
            words.add(arg.lower())
    return words
