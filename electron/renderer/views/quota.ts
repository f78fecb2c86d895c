import uPlot from 'uplot';
import { formatResetUtc, quotaExhausted, quotaLow } from '../../shared/status-problems.js';
import type { DeskModel } from '../desk-model.js';
import { h, replaceChildren } from '../dom.js';
import { fmtAge, fmtCount, fmtDay, fmtLocal, fmtPercent } from '../format.js';
import { forecastQuota, forecastSentence, forecastTone } from '../../shared/quota-forecast.js';
import { dailySeries } from '../usage-series.js';

/** The monthly quota: figures, a chart of live lookups per day, and when it runs out at this pace. */
export class QuotaView {
  readonly root: HTMLElement;
  private readonly cards = h('div', { class: 'cards' });
  private readonly forecastEl = h('div', { class: 'forecast' });
  private readonly chartEl = h('div', { class: 'chart', attrs: { id: 'usage-chart' } });
  private readonly chartNote = h('p', { class: 'muted chart-note' });
  private plot: uPlot | null = null;
  private plotKey = '';
  private visible = false;

  constructor(private readonly model: DeskModel) {
    this.root = h(
      'section',
      { class: 'view view-quota', attrs: { 'aria-label': 'Quota' } },
      h('div', { class: 'view-head' }, h('h2', null, 'Quota')),
      this.cards,
      this.forecastEl,
      h('h3', { class: 'd-sub' }, 'Live lookups per day, this month (UTC)'),
      this.chartEl,
      this.chartNote,
    );
    new ResizeObserver(() => this.resizeChart()).observe(this.chartEl);
  }

  setVisible(v: boolean): void {
    this.visible = v;
    if (v) this.render();
  }

  render(): void {
    const s = this.model.status;
    if (!s) {
      replaceChildren(this.cards, h('p', { class: 'muted' }, this.model.errors.get('status') ?? 'Loading…'));
      return;
    }
    const q = s.quota;
    const share = q.remaining !== null && q.monthly_quota ? q.remaining / q.monthly_quota : null;
    const tone = quotaExhausted(s) ? 'bad' : quotaLow(s) ? 'warn' : '';
    const gateText: Record<string, string> = {
      open: 'open: every screening may spend quota',
      reserve: 'reserve: only tender-time lookups spend quota',
      closed: `closed: no live lookups until ${formatResetUtc(q.resets_at)}`,
    };
    replaceChildren(
      this.cards,
      card('Used', fmtCount(q.used), q.livemode ? 'live lookups this month' : 'sandbox: not counted', '', 'quota-used'),
      card('Remaining', fmtCount(q.remaining), share === null ? '—' : `${fmtPercent(share)} of the quota left`, tone, 'quota-remaining'),
      card(
        'Monthly quota',
        fmtCount(q.monthly_quota),
        q.reserve !== null ? `reserve ${fmtCount(q.reserve)} for tenders` : 'no reserve set',
        '',
        'quota-monthly',
      ),
      card(
        'Rate limit',
        s.rate_limit.per_minute === null ? '—' : `${fmtCount(s.rate_limit.per_minute)}/min`,
        s.rate_limit.remaining === null ? 'shared by every worker' : `${fmtCount(s.rate_limit.remaining)} left this minute`,
        '',
        'quota-rate',
      ),
      card(
        'Resets',
        resetDay(q.resets_at),
        `${formatResetUtc(q.resets_at)} (${fmtAge(q.resets_at)}) · ${fmtLocal(q.resets_at)} your time`,
        '',
        'quota-resets',
      ),
      card(
        'Gate',
        q.gate,
        gateText[q.gate] ?? `gate "${q.gate}"`,
        q.gate === 'closed' ? 'bad' : q.gate === 'reserve' ? 'warn' : '',
        'quota-gate',
      ),
    );
    const updated = q.updated_at ? ` Figures from /v1, updated ${fmtAge(q.updated_at)}.` : '';

    const usage = this.model.usage;
    const f = forecastQuota({
      used: q.used,
      remaining: q.remaining,
      monthlyQuota: q.monthly_quota,
      resetsAt: q.resets_at,
      now: new Date(),
      ...(usage ? { days: usage.days } : {}),
    });
    replaceChildren(
      this.forecastEl,
      h('span', { class: `forecast-text tone-${forecastTone(f)}`, attrs: { id: 'quota-forecast' } }, forecastSentence(f, q.resets_at)),
      h('span', { class: 'muted' }, updated),
    );
    if (this.visible) this.renderChart();
  }

  private renderChart(): void {
    const usage = this.model.usage;
    if (!usage) {
      this.chartNote.textContent = this.model.errors.get('usage') ?? 'Loading usage…';
      return;
    }
    let series;
    try {
      series = dailySeries(usage, new Date());
    } catch (err) {
      this.chartNote.textContent = `Cannot chart usage: ${(err as Error).message}`;
      return;
    }
    const total = series.lookups.reduce<number>((a, b) => a + (b ?? 0), 0);
    this.chartNote.textContent =
      `${fmtCount(total)} live lookups in ${usage.month}.` +
      (series.evenPace !== null
        ? ` The dashed line is the even pace that spends the whole quota by month end (${fmtCount(Math.round(series.evenPace))}/day).`
        : '');
    const key = JSON.stringify([series.lookups, series.evenPace]);
    if (this.plot && key === this.plotKey) return;
    this.plotKey = key;
    const pace = series.x.map(() => series.evenPace);
    const data: uPlot.AlignedData = [series.x, series.lookups, pace];
    if (this.plot) {
      this.plot.setData(data);
      return;
    }
    const width = Math.max(320, this.chartEl.clientWidth);
    this.plot = new uPlot(
      {
        width,
        height: 260,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        scales: {
          x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] },
          y: { range: (_u, _min, max) => [0, Math.max(5, Math.ceil(max * 1.15))] },
        },
        axes: [
          {
            stroke: '#5b6472',
            grid: { stroke: '#eef0f3' },
            values: (_u, ticks) => ticks.map((t) => fmtDay(new Date(t * 1000).toISOString().slice(0, 10))),
          },
          { stroke: '#5b6472', grid: { stroke: '#eef0f3' } },
        ],
        series: [
          { label: 'Day', value: (_u, v) => (v === null ? '—' : fmtDay(new Date(v * 1000).toISOString().slice(0, 10))) },
          {
            label: 'Live lookups',
            stroke: '#2f6fdf',
            fill: 'rgba(47,111,223,0.35)',
            width: 1,
            paths: uPlot.paths.bars?.({ size: [0.7, 40], align: 0 }),
            points: { show: false },
          },
          { label: 'Even pace', stroke: '#c2410c', width: 1.5, dash: [6, 4], points: { show: false } },
        ],
      },
      data,
      this.chartEl,
    );
  }

  private resizeChart(): void {
    if (this.plot && this.chartEl.clientWidth > 0) this.plot.setSize({ width: this.chartEl.clientWidth, height: 260 });
  }
}

/** "Dec 1" — the reset's UTC day. */
function resetDay(iso: string): string {
  return formatResetUtc(iso).split(',')[0] ?? iso;
}

function card(label: string, value: string, note: string, tone: string, id: string): HTMLElement {
  return h(
    'div',
    { class: `card ${tone ? `tone-${tone}` : ''}`, attrs: { id } },
    h('div', { class: 'card-label' }, label),
    h('div', { class: 'card-value' }, value),
    h('div', { class: 'card-note' }, note),
  );
}
