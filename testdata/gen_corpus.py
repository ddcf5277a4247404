#!/usr/bin/env python3
"""Generate realistic ADEXP messages for benchmarks and CLI tests.

The messages follow the ADEXP Edition 3.1 dictionary: IFPL flight plans (most of
them, with 5 to 60 RTEPTS points, EETFIR, ESTDATA, GEO points), ACK/REJ with an ICAO
text in brackets (MSGTXT/OLDMSG), ATFCM SAM/SRM/SLC/FLS, OLDI ABI/ACT/LAM/PAC with
REFDATA, and CHG/CNL/DLA/ICHG/ICNL/IDLA. Sizes go from about 200 bytes to about 8 KB.
Each message is written either on one line or pretty-printed (one field per line,
lists indented, long ROUTE values sometimes wrapped); most use LF, some CRLF.

The output depends only on the arguments (same --seed, same bytes). Python 3 standard
library only.

Usage:
  gen_corpus.py --messages N --out FILE [--seed S] [--bad-every K] [--bad-list PATH]
      Write N messages into FILE ('-' for stdout), one after another, with a blank
      line between two messages.

  gen_corpus.py --files N --dir DIR [--seed S] [--bad-every K] [--bad-list PATH]
      Write N files with one message each, in subfolders of at most 1000 files:
      DIR/000/00001.adexp ... DIR/000/01000.adexp, DIR/001/01001.adexp, ...

Options:
  --seed S        random seed (default 1)
  --bad-every K   make every K-th message (K, 2K, 3K, ...) structurally broken, in
                  turn: list never closed, -END with the wrong name, no -TITLE, '(' of
                  MSGTXT/OLDMSG never closed (other messages: list never closed), a '-'
                  without keyword, binary garbage before -TITLE. With --messages only
                  the kinds that stay detectable inside one stream are used (a message
                  without -TITLE or with garbage would only extend the one before it)
  --bad-list PATH write one line per broken message: its 1-based number, the file
                  (in --files mode) and the kind of damage
  --crlf-rate R   share of messages with CRLF line endings (default 0.1)
  --oneline-rate R  share of messages written on one line (default 0.35)

Examples:
  python3 testdata/gen_corpus.py --messages 100000 --out /tmp/corpus.adexp --seed 7
  python3 testdata/gen_corpus.py --files 5000 --dir /tmp/corpus --bad-every 100 \\
      --bad-list /tmp/corpus-bad.txt
"""

import argparse
import datetime
import os
import random
import sys
import time

# ----------------------------------------------------------------------------- pools

AERODROMES = (
    'EGLL EGKK EGSS EGCC EGPH EGPF EGBB EIDW EHAM EBBR ELLX LFPG LFPO LFLL LFMN LFBO '
    'LFML LFSB LSZH LSGG EDDF EDDM EDDL EDDH EDDB EDDS EDDK EDDP EDDN LOWW LOWS LKPR '
    'EPWA EPKK LHBP LZIB LJLJ LDZA LROP LBSF LGAV LGTS LTFM LTAI LCLK LMML LIRF LIMC '
    'LIML LIPZ LIRN LICC LEMD LEBL LEPA LEMG LEAL LPPT LPPR LPFR EKCH ESSA ESGG ENGM '
    'ENBR EFHK EETN EVRA EYVI UKBB LUKK LWSK LYBE BIKF KJFK KEWR KBOS OMDB OTHH HECA '
    'GMMN DTTA CYYZ').split()
ALTERNATES = AERODROMES
AIRLINES = (
    'AFR BAW DLH KLM IBE VLG EZY RYR WZZ SWR AUA SAS FIN LOT CSA TAP AEE THY EIN BEL '
    'EWG GWI TVS NAX NSZ TRA HOP BCS DHK UAE QTR UAL DAL AAL ACA ELY ROT TAR MSR').split()
TYPES = (  # type, wake, equipment 10a, 10b, pbn, speed, rfl range
    ('A320', 'M', 'SDE2E3FGHIJ1RWY', 'SB1', 'A1B1C1D1O1S2', 'N0450', (300, 390)),
    ('A20N', 'M', 'SDE2E3FGHIJ1RWY', 'SB1', 'A1B1C1D1O1S2', 'N0450', (320, 390)),
    ('A321', 'M', 'SDE3FGHIJ1RWY', 'LB1', 'A1B1C1D1O1S2', 'N0455', (300, 370)),
    ('A319', 'M', 'SDFGHIRWY', 'S', 'B1D1O1S1', 'N0445', (280, 370)),
    ('B738', 'M', 'SDE2E3FGHIRWY', 'SB1', 'A1B1C1D1O1S2', 'N0450', (300, 410)),
    ('B38M', 'M', 'SDE2E3FGHIJ1RWY', 'SB1', 'A1B1C1D1O1S2', 'N0451', (320, 410)),
    ('E190', 'M', 'SDE2E3FGHIRWY', 'SB1', 'B1D1O1S1', 'N0430', (280, 370)),
    ('DH8D', 'M', 'SDFGHIRWY', 'S', 'B2D2S1', 'N0300', (160, 250)),
    ('AT76', 'M', 'SDFGRY', 'S', 'B2D2', 'N0270', (150, 240)),
    ('CRJ9', 'M', 'SDFGHIRWY', 'SB1', 'B1D1S1', 'N0440', (280, 370)),
    ('B77W', 'H', 'SDE1E2E3FGHIJ3J4J5M1RWXY', 'LB1D1', 'A1B1C1D1L1O1S2', 'N0490', (310, 390)),
    ('B789', 'H', 'SDE1E2E3FGHIJ3J4J5M1RWXY', 'LB1D1', 'A1B1C1D1L1O1S2', 'N0488', (330, 410)),
    ('A359', 'H', 'SDE1E2E3FGHIJ3J4J5M1RWXY', 'LB1D1', 'A1B1C1D1L1O1S2', 'N0487', (330, 410)),
    ('A333', 'H', 'SDE1E3FGHIJ3J5M1RWXY', 'LB1D1', 'A1B1C1D1L1O1S2', 'N0472', (310, 390)),
    ('A388', 'J', 'SDE1E2E3FGHIJ3J4J5M1RWXY', 'LB1D1', 'A1B1C1D1L1O1S2', 'N0490', (330, 410)),
    ('C56X', 'M', 'SDFGHIRWY', 'SB1', 'B2D2O2S1', 'N0430', (350, 450)),
    ('PC12', 'L', 'SDFGRY', 'S', 'B2D2', 'N0260', (180, 280)),
)
FIRS = (
    'EGTT EGPX EISN EHAA EBBU LFFF LFRR LFBB LFMM LFEE LSAS EDGG EDUU EDWW EDMM LOVV '
    'LKAA EPWW LHCC LZBB LJLA LDZO LRBB LBSR LGGG LTAA LIMM LIPP LIRR LECM LECB LPPC '
    'EKDK ESAA ENOR EFIN EETT EVRR EYVL UKBV').split()
REGULCAUSES = ('CE 81', 'CA 81', 'WA 84', 'WE 84', 'AD 83', 'AA 83', 'SE 82', 'IE 81')
SLCREASONS = ('OUTREG', 'VOID', 'EXCLUDED', 'CANCELLED')
ERRORS = (
    'ROUTE130: UNKNOWN DESIGNATOR %s',
    'ROUTE165: THE DCT SEGMENT %s..%s IS TOO LONG FOR %s',
    'PROF204: RS: TRAFFIC VIA %s IS ON FORBIDDEN ROUTE REF:%s5432A',
    'EFPM228: INVALID VALUE (EOBD)',
    'SYN83: INVALID CRUISING LEVEL FOR THE FLIGHT RULES: F%03d',
    'EFPM233: FLIGHT PLAN ALREADY GENERATED FROM RPL DATA',
    'PROF50: CLIMBING/DESCENDING OUTSIDE THE VERTICAL LIMITS OF SEGMENT %s %s %s',
)
FLTAB = ['F%03d' % i for i in range(1000)]
FACS = ([a + s for a in AERODROMES for s in ('ZPZX', 'ZTZX', 'ZAZX')]
        + [f + s for f in FIRS for s in ('ZQZX', 'ZRZX', 'ZQZA', 'ZQZX', 'ZRZX')])
HMS = ['%02d%02d%02d' % (t // 3600, t // 60 % 60, t % 60) for t in range(86400)]
CONS = 'BDFGKLMNPRSTVXZ'
VOWS = 'AEIOU'


def make_names(rng):
    """Deterministic pools of 5-letter waypoints, 3-letter navaids and airways."""
    seen = set()
    wpts, vors = [], []
    while len(wpts) < 3000:
        n = (rng.choice(CONS) + rng.choice(VOWS) + rng.choice(CONS) + rng.choice(VOWS)
             + rng.choice(CONS))
        if n not in seen:
            seen.add(n)
            wpts.append(n)
    while len(vors) < 400:
        n = rng.choice(CONS) + rng.choice(VOWS + CONS) + rng.choice(CONS)
        if n not in seen:
            seen.add(n)
            vors.append(n)
    awys = []
    for _ in range(600):
        awys.append(rng.choice(('UN', 'UL', 'UM', 'UZ', 'L', 'M', 'N', 'T', 'Y', 'Z', 'P', 'Q'))
                    + str(rng.randint(1, 999)))
    return wpts, vors, awys


# ----------------------------------------------------------------------------- generator

class Gen:
    def __init__(self, seed, crlf_rate, oneline_rate):
        self.rng = random.Random(seed)
        self.wpts, self.vors, self.awys = make_names(random.Random(seed * 7919 + 13))
        self.crlf_rate = crlf_rate
        self.oneline_rate = oneline_rate
        self.epoch = datetime.date(2025, 1, 1)
        self.days = [(self.epoch + datetime.timedelta(days=k)).strftime('%y%m%d')
                     for k in range(366)]
        self.seq = 0
        rnd = self.rng.random
        # random.choice/randint/randrange are slow; these draw from random() only

        def ch(seq):
            return seq[int(rnd() * len(seq))]

        def ri(lo, hi):
            return lo + int(rnd() * (hi - lo + 1))

        def rr(lo, hi, step):
            return lo + step * int(rnd() * ((hi - lo + step - 1) // step))
        self.ch, self.ri, self.rr = ch, ri, rr

    # --- small helpers
    def point(self):
        r = self.rng
        ch = self.ch
        return ch(self.vors) if r.random() < 0.2 else ch(self.wpts)

    def callsign(self):
        r = self.rng
        ch, ri = self.ch, self.ri
        al = ch(AIRLINES)
        tail = str(ri(1, 9999))
        if r.random() < 0.4 and len(tail) < 4:
            tail += ch('ABCDEFGHJKLMNPRSTUVWXYZ')
            if r.random() < 0.3 and len(tail) < 4:
                tail += ch('ABCDEFGHJKLMNPRSTUVWXYZ')
        return al, al + tail

    def ifplid(self):
        return 'AA%08d' % self.ri(0, 99999999)

    def ssr(self):
        ri = self.ri
        return 'A%d%d%d%d' % (ri(0, 7), ri(0, 7), ri(0, 7), ri(0, 7))

    def reg(self, al):
        ch = self.ch
        c = ch(('D', 'F', 'G', 'EI', 'OE', 'HB', 'PH', 'SE', 'OY', 'SP', 'HA'))
        return c + ''.join(ch('ABCDEFGHIJKLMNOPQRSTUVWXYZ') for _ in range(5 - len(c)))

    def dates(self):
        k = self.ri(0, 364)
        return self.days[k], self.days[k + 1]

    def fac(self):
        ch = self.ch
        return ch(FACS)

    def common_flight(self):
        """Identification shared by all flight-related messages."""
        ch, ri = self.ch, self.ri
        al, arcid = self.callsign()
        adep = ch(AERODROMES)
        ades = ch(AERODROMES)
        while ades == adep:
            ades = ch(AERODROMES)
        eobd, eobd1 = self.dates()
        eobt_min = ri(0, 1439)
        return dict(al=al, arcid=arcid, adep=adep, ades=ades, eobd=eobd, eobd1=eobd1,
                    eobt_min=eobt_min, eobt='%02d%02d' % divmod(eobt_min, 60),
                    ifplid=self.ifplid())

    # --- IFPL
    def ifpl(self, f):
        r = self.rng
        ch, ri, rr = self.ch, self.ri, self.rr
        typ = ch(TYPES)
        npts = int(5 + (r.random() ** 1.6) * 56)   # 5..60, skewed to short flights
        rfl = rr(typ[6][0], typ[6][1] + 1, 10)
        spd = typ[5]
        # route points: departure, enroute points, destination
        oceanic = npts > 25 and r.random() < 0.25
        names = [f['adep']]
        geo = []
        rnd = r.random
        wpts, vors = self.wpts, self.vors
        nw, nv = len(wpts), len(vors)
        g0 = npts // 3 if oceanic else npts
        for i in range(npts - 2):
            if g0 <= i < g0 + 5:
                k = len(geo) + 1
                g = 'GEO%02d' % k
                geo.append((g, '%02d0000N' % (44 + k + ri(0, 3)),
                            '%03d0000W' % (60 - 10 * k)))
                names.append(g)
            else:
                x = rnd()
                if x < 0.2:
                    names.append(vors[int(x * 5 * nv)])
                else:
                    names.append(wpts[int((x - 0.2) * 1.25 * nw)])
        names.append(f['ades'])
        # times and levels
        t0 = (f['eobt_min'] + ri(8, 25)) * 60      # take-off, seconds of day
        t = t0
        climb = min(4, npts // 3)
        last = npts - 1
        d0, d1 = f['eobd'], f['eobd1']
        fltab = FLTAB
        hms = HMS
        cruise = fltab[rfl]
        etos = [(d0 + hms[t0]) if t0 < 86400 else (d1 + hms[t0 - 86400])]
        fls = ['F000']
        for i in range(1, npts):
            t += 60 + int(rnd() * 421)
            if i == last:
                fls.append('F000')
            elif i <= climb:
                fls.append(fltab[max(30, rfl * i // (climb + 1))])
            elif i >= last - climb:
                fls.append(fltab[max(30, rfl * (last - i) // (climb + 1))])
            else:
                fls.append(cruise)
            etos.append((d0 + hms[t]) if t < 86400 else (d1 + hms[t - 86400]))
        eet = (t - t0) // 60
        ttleet = '%02d%02d' % divmod(eet, 60)
        # ROUTE text: airways or DCT between points; short flights skip some points
        route = ['%sF%03d' % (spd, rfl)]
        atsrt = []
        prev = names[1] if npts > 2 else None
        if prev:
            route.append(prev)
        awys = self.awys
        na = len(awys)
        ga, gb = g0 + 1, g0 + 5          # indexes of the GEO points in names, if any
        i = 2
        while i < last:
            j = i + int(rnd() * 4) if npts <= 40 else i
            if j > last - 1:
                j = last - 1
            if oceanic and i <= gb:      # never jump over a GEO point
                k = ga if ga > i else i
                if k < j:
                    j = k
            nm = names[j]
            if oceanic and ga <= j <= gb:
                g = geo[j - ga]
                route.append('DCT')
                route.append('%sN%sW' % (g[1][:2], g[2][:3]))
                atsrt.append(('DCT', prev, nm))
            else:
                x = rnd()
                a = awys[int(x * 1.4 * na)] if x < 0.7 else 'DCT'
                route.append(a)
                route.append(nm)
                atsrt.append((a, prev, nm))
            prev = nm
            i = j + 1
        route.append('DCT')
        fields = []
        add = fields.append
        add((0, '-TITLE IFPL'))
        nfac = ri(3, 8 + npts // 2) if npts <= 40 else ri(25, 70)
        add((0, '-BEGIN ADDR'))
        add((1, '-FAC CFMUTACT'))
        for _ in range(nfac - 1):
            add((1, '-FAC ' + self.fac()))
        add((0, '-END ADDR'))
        add((0, '-ADEP ' + f['adep']))
        add((0, '-ADES ' + f['ades']))
        if r.random() < 0.8:
            add((0, '-ALTRNT1 ' + ch(ALTERNATES)))
        add((0, '-AOARCID ' + f['al']))
        add((0, '-AOOPR ' + f['al']))
        add((0, '-ARCID ' + f['arcid']))
        add((0, '-ARCTYP ' + typ[0]))
        add((0, '-CEQPT ' + typ[2]))
        add((0, '-EOBD ' + f['eobd']))
        add((0, '-EOBT ' + f['eobt']))
        add((0, '-FILTIM %s%02d%02d' % (f['eobd'][4:], ri(0, 23), ri(0, 59))))
        add((0, '-IFPLID ' + f['ifplid']))
        add((0, '-ORIGIN -NETWORKTYPE %s -FAC %s' % (
            ('SITA', ch(('PARKLAF', 'FRAOXLH', 'LONKKBA', 'AMSKKKL', 'HDQDDUA')))
            if r.random() < 0.6 else ('AFTN', f['adep'] + f['al'] + 'X'))))
        add((0, '-ORGNID %sAOCC' % f['al']))
        add((0, '-SEQPT ' + typ[3]))
        add((0, '-WKTRC ' + typ[1]))
        add((0, '-OPR ' + f['al']))
        add((0, '-REG ' + self.reg(f['al'])))
        if r.random() < 0.5:
            add((0, '-SEL ' + ''.join(ch('ABCDEFGHJKLMPQRS') for _ in range(4))))
        add((0, '-SRC FPL'))
        add((0, '-TTLEET ' + ttleet))
        add((0, '-PBN ' + typ[4]))
        add((0, '-RFL F%03d' % rfl))
        add((0, '-SPEED ' + spd))
        add((0, '-FLTRUL I'))
        add((0, '-FLTTYP S'))
        if r.random() < 0.15:
            add((0, '-RMK ' + ch(('TCAS', 'NEW CREW', 'CALLSIGN CHANGED',
                                         'ACAS II EQUIPPED', 'REQ DIRECT ROUTING'))))
        add((0, '-ROUTE ' + ' '.join(route)))
        # EETFIR
        nfir = min(12, max(1, npts // 5))
        step = max(1, eet // (nfir + 1))
        for k in range(nfir):
            m = step * (k + 1)
            add((0, '-EETFIR %s %02d%02d' % (ch(FIRS), m // 60, m % 60)))
        for g in geo:
            add((0, '-GEO -GEOID %s -LATTD %s -LONGTD %s' % g))
        if r.random() < 0.5 or geo:
            for _ in range(ri(1, 3) if npts <= 40 else ri(4, 12)):
                k = ri(1, npts - 2) if npts > 2 else 0
                add((0, '-ESTDATA -PTID %s -ETO %s -FL %s' % (names[k], etos[k], fls[k])))
        add((0, '-BEGIN RTEPTS'))
        fields.extend([(1, '-PT -PTID %s -FL %s -ETO %s' % x) for x in zip(names, fls, etos)])
        add((0, '-END RTEPTS'))
        if npts > 40 or r.random() < 0.5:
            fields.extend([(0, ('-DCT %s %s' % (p1, p2)) if a == 'DCT' else
                            ('-ATSRT %s %s %s' % (a, p1, p2))) for a, p1, p2 in atsrt])
        return fields, 'ifpl'

    # --- ICAO text for ACK/REJ/MAN
    def icao_fpl(self, f, multiline):
        r = self.rng
        ch, ri, rr = self.ch, self.ri, self.rr
        typ = ch(TYPES)
        route = '%sF%03d %s %s %s %s DCT' % (typ[5], rr(typ[6][0], typ[6][1] + 1, 10),
                                              self.point(), ch(self.awys), self.point(),
                                              ch(self.awys))
        parts = ['(FPL-%s-IS' % f['arcid'], '%s/%s-%s/%s' % (typ[0], typ[1], typ[2], typ[3]),
                 '%s%s' % (f['adep'], f['eobt']), route,
                 '%s%02d%02d %s' % (f['ades'], ri(0, 5), ri(0, 59),
                                    ch(ALTERNATES)),
                 'PBN/%s DOF/%s REG/%s RMK/(TCAS) %s)' % (typ[4], f['eobd'], self.reg(f['al']),
                                                       ch(('NIL', 'ACAS II', 'TEL 0 22')))]
        if multiline:
            return '\n-'.join(parts)
        sep = ' -' if r.random() < 0.3 else '-'
        return sep.join(parts)

    def ack(self, f):
        r = self.rng
        ri = self.ri
        ml = r.random() < 0.4
        fields = [(0, '-TITLE ACK'), (0, '-MSGTYP IFPL'),
                  (0, '-FILTIM %s%02d%02d' % (f['eobd'][4:], ri(0, 23), ri(0, 59))),
                  (0, '-ORIGINDT %s%02d%02d' % (f['eobd'], ri(0, 23), ri(0, 59))),
                  (0, '-BEGIN ADDR'), (1, '-FAC ' + f['adep'] + f['al'] + 'X'), (0, '-END ADDR'),
                  (0, '-IFPLID ' + f['ifplid']), (0, '-ARCID ' + f['arcid']),
                  (0, '-ADEP ' + f['adep']), (0, '-ADES ' + f['ades']),
                  (0, '-EOBT ' + f['eobt']), (0, '-EOBD ' + f['eobd']),
                  (0, '-MSGTXT ' + self.icao_fpl(f, ml))]
        return fields, 'text'

    def rej(self, f):
        r = self.rng
        ch, ri, rr = self.ch, self.ri, self.rr
        fields = [(0, '-TITLE ' + ch(('REJ', 'REJ', 'MAN'))), (0, '-MSGTYP IFPL'),
                  (0, '-FILTIM %s%02d%02d' % (f['eobd'][4:], ri(0, 23), ri(0, 59))),
                  (0, '-ORIGINDT %s%02d%02d' % (f['eobd'], ri(0, 23), ri(0, 59))),
                  (0, '-BEGIN ADDR'), (1, '-FAC ' + f['adep'] + f['al'] + 'X'), (0, '-END ADDR'),
                  (0, '-COMMENT THIS MESSAGE HAS BEEN REJECTED AUTOMATICALLY')]
        for _ in range(ri(1, 4)):
            e = ch(ERRORS)
            n = e.count('%')
            if '%03d' in e:
                args = (rr(200, 410, 5),)
            else:
                args = tuple(ch((self.point(), ch(self.awys), ch(FIRS)))
                             for _ in range(n))
            fields.append((0, '-ERROR ' + (e % args if n else e)))
        key = '-OLDMSG ' if r.random() < 0.4 else '-MSGTXT '
        fields.append((0, key + self.icao_fpl(f, r.random() < 0.5)))
        return fields, 'text'

    # --- ATFCM
    def atfm(self, f):
        r = self.rng
        ch, ri = self.ch, self.ri
        title = ch(('SAM', 'SAM', 'SRM', 'SLC', 'FLS'))
        fields = [(0, '-TITLE ' + title), (0, '-ARCID ' + f['arcid']),
                  (0, '-IFPLID ' + f['ifplid']), (0, '-ADEP ' + f['adep']),
                  (0, '-ADES ' + f['ades']), (0, '-EOBD ' + f['eobd']),
                  (0, '-EOBT ' + f['eobt'])]
        ctot = (f['eobt_min'] + ri(15, 180)) % 1440
        regul = f['ades'] + ch(('ARR', 'A', 'CTA', 'E1')) if r.random() < 0.5 else \
            ch(FIRS) + ch(('CTA', 'NE', 'SE2', 'W', 'UPPER'))
        if title == 'SAM':
            fields.append((0, '-CTOT %02d%02d' % divmod(ctot, 60)))
        elif title == 'SRM':
            fields.append((0, '-NEWCTOT %02d%02d' % divmod(ctot, 60)))
        if title in ('SAM', 'SRM', 'FLS'):
            fields.append((0, '-REGUL ' + regul))
            if r.random() < 0.2:
                fields.append((0, '-REGUL ' + ch(FIRS) + 'CTA'))
            fields.append((0, '-REGCAUSE ' + ch(REGULCAUSES)))
        if title in ('SAM', 'SRM'):
            fields.append((0, '-TAXITIME %04d' % ch((10, 12, 15, 20))))
        if title == 'SLC':
            fields.append((0, '-REASON ' + ch(SLCREASONS)))
            fields.append((0, '-COMMENT FLIGHT NO LONGER SUBJECT TO ATFM REGULATION'))
        if title == 'FLS':
            fields.append((0, '-COMMENT FLIGHT SUSPENDED: NOT REPORTED AS AIRBORNE'))
        return fields, 'short'

    # --- OLDI
    def oldi(self, f):
        r = self.rng
        ch, ri, rr = self.ch, self.ri, self.rr
        title = ch(('ABI', 'ACT', 'LAM', 'PAC', 'ABI', 'ACT'))
        units = ('ZH', 'KA', 'WI', 'MU', 'GE', 'LO', 'SH', 'RE', 'PA', 'BO', 'MA', 'BC')
        snd, rcv = r.sample(units, 2)
        self.seq = (self.seq + 1) % 1000
        fields = [(0, '-TITLE ' + title),
                  (0, '-REFDATA -SENDER -FAC %s -RECVR -FAC %s -SEQNUM %03d'
                   % (snd, rcv, self.seq))]
        if title == 'LAM':
            fields.append((0, '-MSGREF -SENDER -FAC %s -RECVR -FAC %s -SEQNUM %03d'
                           % (rcv, snd, ri(0, 999))))
            return fields, 'short'
        typ = ch(TYPES)
        fields += [(0, '-ARCID ' + f['arcid']), (0, '-SSRCODE ' + self.ssr()),
                   (0, '-ADEP ' + f['adep']), (0, '-ADES ' + f['ades']),
                   (0, '-ARCTYP ' + typ[0]), (0, '-FLTTYP S')]
        if title in ('ACT', 'PAC'):
            fields += [(0, '-EOBT ' + f['eobt']), (0, '-EOBD ' + f['eobd']),
                       (0, '-IFPLID ' + f['ifplid']), (0, '-WKTRC ' + typ[1]),
                       (0, '-FLTRUL I')]
        if title != 'PAC':
            tfl = rr(typ[6][0] - 60, typ[6][1] + 1, 10)
            fields.append((0, '-COORDATA -PTID %s -TO %02d%02d -TFL F%03d'
                           % (self.point(), ri(0, 23), ri(0, 59), tfl)))
            if title == 'ACT' and r.random() < 0.7:
                fields.append((0, '-CFL -FL F%03d' % tfl))
        fields.append((0, '-BEGIN EQCST'))
        for e in ('W', 'Y', 'R', 'U')[:ri(1, 4)]:
            fields.append((1, '-EQPT %s/%s' % (e, ch(('EQ', 'EQ', 'NO', 'UN')))))
        fields.append((1, '-SUREQPT S/EQ/' + ch(('S', 'L', 'E'))))
        fields.append((0, '-END EQCST'))
        if r.random() < 0.6:
            fields.append((0, '-ROUTE %sF%03d %s %s %s %s %s DCT' % (
                typ[5], typ[6][0], self.point(), ch(self.awys), self.point(),
                ch(self.awys), self.point())))
        return fields, 'short'

    # --- CHG / CNL / DLA and IFPS individual variants
    def ifps_small(self, f):
        ch, ri, rr = self.ch, self.ri, self.rr
        title = ch(('CHG', 'CNL', 'DLA', 'ICHG', 'ICNL', 'IDLA'))
        fields = [(0, '-TITLE ' + title)]
        if title[0] == 'I':
            fields += [(0, '-BEGIN ADDR'), (1, '-FAC CFMUTACT')]
            for _ in range(ri(1, 6)):
                fields.append((1, '-FAC ' + self.fac()))
            fields += [(0, '-END ADDR'), (0, '-IFPLID ' + f['ifplid'])]
        fields += [(0, '-ARCID ' + f['arcid']), (0, '-ADEP ' + f['adep']),
                   (0, '-ADES ' + f['ades']), (0, '-EOBD ' + f['eobd'])]
        if title.endswith('DLA'):
            new = (f['eobt_min'] + ri(10, 240)) % 1440
            if title == 'DLA':
                fields += [(0, '-EOBT ' + f['eobt']), (0, '-NEWEOBT %02d%02d' % divmod(new, 60))]
            else:
                fields.append((0, '-EOBT %02d%02d' % divmod(new, 60)))
        else:
            fields.append((0, '-EOBT ' + f['eobt']))
        fields.append((0, '-FILTIM %s%02d%02d' % (f['eobd'][4:], ri(0, 23), ri(0, 59))))
        if title[0] == 'I':
            fields.append((0, '-ORIGIN -NETWORKTYPE AFTN -FAC %s%sX' % (f['adep'], f['al'])))
        else:
            fields.append((0, '-ORGN %s%sX' % (f['adep'], f['al'])))
        if title.endswith('CHG'):
            rfl = rr(250, 410, 10)
            fields += [(0, '-RFL F%03d' % rfl),
                       (0, '-ROUTE N0450F%03d %s %s %s %s %s DCT' % (
                           rfl, self.point(), ch(self.awys), self.point(),
                           ch(self.awys), self.point()))]
        return fields, 'short'

    # --- one message
    def message(self):
        r = self.rng
        f = self.common_flight()
        x = r.random()
        if x < 0.55:
            fields, kind = self.ifpl(f)
        elif x < 0.63:
            fields, kind = self.ack(f)
        elif x < 0.67:
            fields, kind = self.rej(f)
        elif x < 0.79:
            fields, kind = self.atfm(f)
        elif x < 0.92:
            fields, kind = self.oldi(f)
        else:
            fields, kind = self.ifps_small(f)
        return fields, kind

    def render(self, fields):
        r = self.rng
        ch = self.ch
        if r.random() < self.oneline_rate:
            text = ' '.join(t for _, t in fields)
        else:
            unit = ch(('', '  ', '    ', ' ', '\t'))
            wrap = r.random() < 0.3
            if not wrap:
                pre = ('', unit)
                text = '\n'.join([pre[d] + t for d, t in fields])
                fields = ()
            out = []
            for d, t in fields:
                if len(t) > 72 and t.startswith('-ROUTE '):
                    words = t.split(' ')
                    line = words[0]
                    for w in words[1:]:
                        if len(line) + 1 + len(w) > 69:
                            out.append(unit * d + line)
                            line = ' ' + w
                        else:
                            line += ' ' + w
                    out.append(unit * d + line)
                else:
                    out.append(unit * d + t)
            if wrap:
                text = '\n'.join(out)
        text += '\n'
        if r.random() < self.crlf_rate:
            text = text.replace('\n', '\r\n')
        return text

    # --- damage for --bad-every
    BAD_KINDS = ('unclosed-list', 'end-mismatch', 'no-title', 'text-unclosed',
                 'dash-no-keyword', 'binary-garbage')

    # in one stream, a message without -TITLE or with garbage only extends the message
    # before it, so --messages uses the kinds that stay detectable there
    STREAM_KINDS = ('unclosed-list', 'end-mismatch', 'text-unclosed', 'dash-no-keyword')

    def damage(self, fields, kind, n, stream):
        ch, ri = self.ch, self.ri
        kinds = self.STREAM_KINDS if stream else self.BAD_KINDS
        how = kinds[(n // self.bad_every - 1) % len(kinds)]
        if how == 'text-unclosed' and kind != 'text':
            how = 'unclosed-list'
        fl = list(fields)
        if how == 'unclosed-list':
            ends = [i for i, (_, t) in enumerate(fl) if t.startswith('-END ')]
            if ends:
                del fl[ch(ends)]
            else:
                fl.insert(1, (0, '-BEGIN RTEPTS'))
            return fl, how, None
        if how == 'end-mismatch':
            ends = [i for i, (_, t) in enumerate(fl) if t.startswith('-END ')]
            if ends:
                i = ch(ends)
                name = fl[i][1][5:]
                fl[i] = (fl[i][0], '-END ' + ('ADDR' if name != 'ADDR' else 'RTEPTS'))
            else:
                fl.append((0, '-END RTEPTS'))
            return fl, how, None
        if how == 'no-title':
            return fl[1:], how, None
        if how == 'text-unclosed':
            for i, (d, t) in enumerate(fl):
                if t.startswith('-MSGTXT (') or t.startswith('-OLDMSG ('):
                    fl[i] = (d, t[:t.rindex(')')])
            return fl, how, None
        if how == 'dash-no-keyword':
            fl.insert(ri(1, len(fl)), (0, ch(('-/', '- ', '-?', '-(X)'))))
            return fl, how, None
        garbage = bytes([ri(0x80, 0xff)] + [ri(0, 255) for _ in range(ri(8, 64))])
        return fl, how, garbage


def run(args):
    g = Gen(args.seed, args.crlf_rate, args.oneline_rate)
    g.bad_every = args.bad_every
    bad = []
    n = args.messages if args.messages is not None else args.files
    t0 = time.time()
    total = 0

    def produce(i):
        fields, kind = g.message()
        garbage = None
        if args.bad_every and i % args.bad_every == 0:
            fields, how, garbage = g.damage(fields, kind, i, args.messages is not None)
            bad.append((i, how))
        data = g.render(fields).encode('ascii')
        if garbage is not None:          # binary bytes before the first field
            data = garbage + data
        return data

    if args.messages is not None:
        out = sys.stdout.buffer if args.out == '-' else open(args.out, 'wb')
        buf = []
        for i in range(1, n + 1):
            data = produce(i)
            if i > 1:
                buf.append(b'\r\n' if data.endswith(b'\r\n') else b'\n')
            buf.append(data)
            total += len(data)
            if len(buf) >= 4096:
                out.write(b''.join(buf))
                buf = []
        out.write(b''.join(buf))
        if out is not sys.stdout.buffer:
            out.close()
        names = {}
    else:
        width = max(5, len(str(n)))
        dwidth = max(3, len(str((n - 1) // 1000)))
        names = {}
        made = set()
        for i in range(1, n + 1):
            sub = '%0*d' % (dwidth, (i - 1) // 1000)
            if sub not in made:
                os.makedirs(os.path.join(args.dir, sub), exist_ok=True)
                made.add(sub)
            rel = '%s/%0*d.adexp' % (sub, width, i)
            data = produce(i)
            with open(os.path.join(args.dir, rel), 'wb') as fh:
                fh.write(data)
            total += len(data)
            names[i] = rel
    if args.bad_list:
        with open(args.bad_list, 'w') as fh:
            for i, how in bad:
                fh.write('%d %s %s\n' % (i, names.get(i, '-'), how))
    sys.stderr.write('%d messages, %d bytes, %d broken, %.1f s\n'
                     % (n, total, len(bad), time.time() - t0))


def main(argv=None):
    p = argparse.ArgumentParser(
        description='Generate realistic ADEXP messages (deterministic with --seed).',
        epilog='modes:' + __doc__.split('Usage:')[1].split('Options:')[0]
        + 'examples:' + __doc__.split('Examples:')[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument('--messages', type=int, metavar='N', help='write N messages into --out')
    mode.add_argument('--files', type=int, metavar='N',
                      help='write N one-message files under --dir')
    p.add_argument('--out', metavar='FILE', help="output file for --messages ('-' = stdout)")
    p.add_argument('--dir', metavar='DIR', help='output folder for --files')
    p.add_argument('--seed', type=int, default=1, help='random seed (default 1)')
    p.add_argument('--bad-every', type=int, default=0, metavar='K',
                   help='make every K-th message structurally broken')
    p.add_argument('--bad-list', metavar='PATH', help='write the list of broken messages')
    p.add_argument('--crlf-rate', type=float, default=0.1, metavar='R',
                   help='share of messages with CRLF line endings (default 0.1)')
    p.add_argument('--oneline-rate', type=float, default=0.35, metavar='R',
                   help='share of one-line messages (default 0.35)')
    args = p.parse_args(argv)
    if args.messages is not None and not args.out:
        p.error('--messages needs --out')
    if args.files is not None and not args.dir:
        p.error('--files needs --dir')
    if (args.messages if args.messages is not None else args.files) < 0:
        p.error('N must be >= 0')
    if args.bad_every < 0:
        p.error('--bad-every must be >= 0')
    run(args)


if __name__ == '__main__':
    main()
