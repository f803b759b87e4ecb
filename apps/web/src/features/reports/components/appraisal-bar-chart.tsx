import type { AppraisalItem } from '@siteboard/shared';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format';
import { Bar, BarChart, CartesianGrid, Cell, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** Spec §9: Completed green, Ongoing orange, Pending Approval purple, Overdue red. */
const APPRAISAL_BARS = [
  { key: 'completed_tasks', label: 'appraisal.completed', colour: '#16a34a' },
  { key: 'ongoing_tasks', label: 'appraisal.ongoing', colour: '#f97316' },
  { key: 'pending_approval_tasks', label: 'appraisal.pendingApproval', colour: '#9333ea' },
  { key: 'overdue_tasks', label: 'appraisal.overdue', colour: '#dc2626' },
] as const;

export default function AppraisalBarChart({ item, height = 220 }: { item: AppraisalItem; height?: number }) {
  const { t } = useTranslation();
  const data = APPRAISAL_BARS.map((bar) => ({ name: t(bar.label), value: item[bar.key], colour: bar.colour }));
  return (
    <figure>
      <figcaption className="sr-only">{data.map((bar) => t('appraisal.barValue', { name: bar.name, value: bar.value })).join(', ')}</figcaption>
      <div style={{ height }} aria-hidden>
        <ResponsiveContainer width="100%" height="100%">
          {/* The figcaption speaks for the chart, so its keyboard layer would be a focus stop inside aria-hidden. */}
          <BarChart data={data} margin={{ top: 20, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            {/* A narrow card has under 80 px a bar: "Pending Approval" wraps instead of running into its neighbours, and the axis has room for the lines a longer language needs. */}
            <XAxis dataKey="name" tick={{ fontSize: 12, width: 56 }} height={56} interval={0} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
            {/* The bar's name heads the tooltip; below it the count alone (recharts would add its series' name, "value", in English). */}
            <Tooltip cursor={{ fill: 'rgba(148,163,184,0.15)' }} separator="" formatter={(value) => [formatNumber(Number(value)), '']} />
            <Bar dataKey="value" radius={[4, 4, 0, 0]} isAnimationActive={false}>
              {data.map((bar) => (
                <Cell key={bar.name} fill={bar.colour} />
              ))}
              <LabelList dataKey="value" position="top" fontSize={12} />
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
