import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { Role } from '@siteboard/shared';
import type { Db, Tx } from '../platform';
import { notificationRecipients, notifications } from '../schema/notifications';
import { projects } from '../schema/projects';
import { majorTasks, subtasks } from '../schema/tasks';
import { teamMembers, users } from '../schema/users';
import { findCompanyByName } from '../features/companies/companies.queries';
import { takeNextUserNumber } from '../features/users/users.queries';
import { signup } from '../features/companies/companies.service';
import { insertUser, updateUserRow } from '../features/users/users.queries';
import { userCode } from '../features/users/users.rules';
import { hashPassword } from '../lib/passwords';
import { englishText, params, type NotificationParams } from '../features/notifications/notifications.rules';

export const DEMO_COMPANY_NAME = 'SiteBoard Demo';
export const DEMO_COMPANY_PASSWORD = 'demo-company';
export const DEMO_PASSWORD = 'demo-password';

export interface DemoAccount {
  role: Role;
  email: string;
  full_name: string | null;
}

export interface DemoSeed {
  /** False when the demo company was already there and nothing was written. */
  created: boolean;
  companyId: number;
  accounts: DemoAccount[];
}

const ADMIN_EMAIL = 'admin@example.com';
// Screens name people by their full name (decision record 062): a demo of e-mail addresses would show none of it.
const ADMIN_NAME = 'Helena Brandt';
const DAY_MS = 24 * 60 * 60 * 1000;

const MANAGERS = [
  { key: 'manager1', fullName: 'Maria Keller', designation: 'Site Manager', mobileNumber: '+1 555 0101' },
  { key: 'manager2', fullName: 'Daniel Ortega', designation: 'Project Engineer', mobileNumber: '+1 555 0102' },
] as const;

const TEAM_MEMBERS = [
  { key: 'member1', fullName: 'Lucas Martin', designation: 'Carpenter', manager: 'manager1' },
  { key: 'member2', fullName: 'Sofia Romero', designation: 'Concrete Finisher', manager: 'manager1' },
  { key: 'member3', fullName: 'Jonas Weber', designation: 'Plumber', manager: 'manager1' },
  { key: 'member4', fullName: 'Amélie Laurent', designation: 'Welder', manager: 'manager2' },
  { key: 'member5', fullName: 'Samuel Becker', designation: 'Surveyor', manager: 'manager2' },
  { key: 'member6', fullName: 'Lucía Navarro', designation: 'Painter', manager: 'manager2' },
] as const;

type ManagerKey = (typeof MANAGERS)[number]['key'];
type PersonKey = ManagerKey | (typeof TEAM_MEMBERS)[number]['key'];
type People = Record<PersonKey, number>;

const emailOf = (key: PersonKey) => `${key}@example.com`;

interface SubtaskPlan {
  name: string;
  assignee: PersonKey;
  priority: 'low' | 'medium' | 'high';
  status: 'ongoing' | 'pending_approval' | 'completed';
  /** Days from today; negative is in the past. */
  due: number;
  /** Days since the assignee sent it for approval; a completed subtask was approved a day later. */
  sentDaysAgo?: number;
}

interface ProjectPlan {
  name: string;
  description: string;
  status: 'planned' | 'ongoing' | 'completed';
  manager: ManagerKey;
  start: number;
  end: number;
  /** Days since its major tasks and subtasks were written down. */
  tasksCreatedDaysAgo: number;
  majorTasks: { name: string; description: string; subtasks: SubtaskPlan[] }[];
}

// Dates are relative to the day of seeding, so "due today" and "overdue" stay true whenever it runs.
const PROJECTS: ProjectPlan[] = [
  {
    name: 'Riverside Apartments',
    description: 'Four-storey residential block on the east bank.',
    status: 'ongoing',
    manager: 'manager1',
    start: -60,
    end: 120,
    tasksCreatedDaysAgo: 45,
    majorTasks: [
      {
        name: 'Foundations',
        description: 'Excavation, slab and basement walls.',
        subtasks: [
          { name: 'Excavate site', assignee: 'member1', priority: 'high', status: 'completed', due: -20, sentDaysAgo: 22 },
          { name: 'Pour foundation slab', assignee: 'member2', priority: 'high', status: 'completed', due: -3, sentDaysAgo: 4 },
          { name: 'Waterproof basement walls', assignee: 'member3', priority: 'medium', status: 'ongoing', due: -2 },
        ],
      },
      {
        name: 'Framing',
        description: 'Ground-floor structure and roof preparation.',
        subtasks: [
          { name: 'Frame ground floor walls', assignee: 'member1', priority: 'high', status: 'ongoing', due: 0 },
          { name: 'Install floor joists', assignee: 'member2', priority: 'medium', status: 'pending_approval', due: 0, sentDaysAgo: 1 },
          { name: 'Order roof trusses', assignee: 'member3', priority: 'low', status: 'ongoing', due: 1 },
          { name: 'Review structural drawings', assignee: 'manager2', priority: 'medium', status: 'ongoing', due: 7 },
        ],
      },
    ],
  },
  {
    name: 'Harbour Bridge Repairs',
    description: 'Deck resurfacing and joint replacement.',
    status: 'ongoing',
    manager: 'manager2',
    start: -30,
    end: 90,
    tasksCreatedDaysAgo: 25,
    majorTasks: [
      {
        name: 'Inspection',
        description: 'Condition survey before the works.',
        subtasks: [
          { name: 'Inspect deck joints', assignee: 'member4', priority: 'high', status: 'completed', due: -10, sentDaysAgo: 11 },
          { name: 'Survey bearings', assignee: 'member5', priority: 'medium', status: 'pending_approval', due: -4, sentDaysAgo: 3 },
          { name: 'Photograph corrosion', assignee: 'member6', priority: 'low', status: 'ongoing', due: -1 },
        ],
      },
      {
        name: 'Deck resurfacing',
        description: 'Remove and replace the road surface.',
        subtasks: [
          { name: 'Mill old asphalt', assignee: 'member4', priority: 'high', status: 'ongoing', due: 0 },
          { name: 'Replace expansion joints', assignee: 'member5', priority: 'medium', status: 'ongoing', due: 10 },
          { name: 'Repaint railings', assignee: 'member6', priority: 'low', status: 'pending_approval', due: 21, sentDaysAgo: 1 },
        ],
      },
    ],
  },
  {
    name: 'Northgate School Extension',
    description: 'Two new classrooms and a covered walkway.',
    status: 'planned',
    manager: 'manager1',
    start: 14,
    end: 200,
    tasksCreatedDaysAgo: 2,
    majorTasks: [
      {
        name: 'Site preparation',
        description: 'Permits and site set-up.',
        subtasks: [
          { name: 'Apply for building permit', assignee: 'member1', priority: 'high', status: 'ongoing', due: 10 },
          { name: 'Fence the site', assignee: 'member2', priority: 'low', status: 'ongoing', due: 20 },
        ],
      },
    ],
  },
  {
    name: 'Old Mill Renovation',
    description: 'Conversion of the mill into offices.',
    status: 'completed',
    manager: 'manager2',
    start: -200,
    end: -20,
    tasksCreatedDaysAgo: 190,
    majorTasks: [
      {
        name: 'Structural repairs',
        description: 'Beams and masonry.',
        subtasks: [
          { name: 'Reinforce timber beams', assignee: 'member4', priority: 'high', status: 'completed', due: -120, sentDaysAgo: 125 },
          { name: 'Repoint brickwork', assignee: 'member5', priority: 'medium', status: 'completed', due: -90, sentDaysAgo: 92 },
        ],
      },
      {
        name: 'Handover',
        description: 'Sign-off with the client.',
        subtasks: [{ name: 'Final inspection', assignee: 'member6', priority: 'low', status: 'completed', due: -25, sentDaysAgo: 26 }],
      },
    ],
  },
];

interface NotificationPlan {
  type: 'task_assignment' | 'task_submission' | 'task_approved' | 'task_declined' | 'deadline_reminder' | 'approval_delay';
  /** What the decliner wrote, for task_declined. */
  reason?: string;
  /** The author shown: a person (by e-mail) for task events, "System" for the sweeps. */
  createdBy: PersonKey | 'System';
  subtask: string;
  recipients: PersonKey[];
  daysAgo: number;
  read: boolean;
}

const NOTIFICATIONS: NotificationPlan[] = [
  { type: 'task_assignment', createdBy: 'manager1', subtask: 'Frame ground floor walls', recipients: ['member1'], daysAgo: 5, read: true },
  { type: 'task_assignment', createdBy: 'manager1', subtask: 'Review structural drawings', recipients: ['manager2'], daysAgo: 2, read: false },
  { type: 'task_submission', createdBy: 'member2', subtask: 'Install floor joists', recipients: ['manager1'], daysAgo: 1, read: false },
  { type: 'task_approved', createdBy: 'manager1', subtask: 'Pour foundation slab', recipients: ['member2'], daysAgo: 3, read: true },
  { type: 'task_declined', reason: 'more close-ups of the south pier, please', createdBy: 'manager2', subtask: 'Photograph corrosion', recipients: ['member6'], daysAgo: 2, read: false },
  { type: 'deadline_reminder', createdBy: 'System', subtask: 'Order roof trusses', recipients: ['member3'], daysAgo: 0, read: false },
  { type: 'approval_delay', createdBy: 'System', subtask: 'Survey bearings', recipients: ['manager2'], daysAgo: 0, read: false },
];

/**
 * A demo notification's params, as the app writes them for the same event: each reader then sees
 * it in their own language (a row without params stays English).
 */
function notificationParams(plan: NotificationPlan, people: People, now: Date): NotificationParams {
  const project = PROJECTS.find((candidate) => candidate.majorTasks.some((task) => task.subtasks.some((subtask) => subtask.name === plan.subtask)))!;
  const subtask = project.majorTasks.flatMap((task) => task.subtasks).find((candidate) => candidate.name === plan.subtask)!;
  const task = { name: subtask.name, projectName: project.name };
  const person = (key: PersonKey) => ({ id: people[key], email: emailOf(key) });
  // The task events' author is a person; only the sweeps' types, which name no actor, are the System's.
  const actor = () => person(plan.createdBy as PersonKey);
  const due = dayFrom(now, subtask.due);
  switch (plan.type) {
    case 'task_assignment':
      return params.taskAssignment(actor(), task, due);
    case 'task_submission':
      return params.taskSubmission(actor(), task);
    case 'task_approved':
      return params.taskApproved(actor(), task);
    case 'task_declined':
      return params.taskDeclined(actor(), task, plan.reason);
    case 'deadline_reminder':
      return params.deadlineReminder(task, due);
    case 'approval_delay':
      return params.approvalDelay(task, person(subtask.assignee), 48);
  }
}

/**
 * Creates the demo company with people, projects in every status, tasks in every state and a few
 * notifications, all in one transaction. When the company already exists it writes nothing and
 * answers its accounts, so running the seed twice is harmless.
 */
export async function seedDemo(db: Db, now = new Date()): Promise<DemoSeed> {
  const existing = await findCompanyByName(db, DEMO_COMPANY_NAME);
  if (existing) return { created: false, companyId: existing.id, accounts: await listAccounts(db, existing.id) };

  // Every demo account shares one password, so one (slow) hash serves them all.
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const companyId = await db.transaction(async (tx) => {
    const { companyId, people } = await createPeople(tx, passwordHash);
    const subtaskIds = await createProjects(tx, companyId, people, now);
    await createNotifications(tx, companyId, people, subtaskIds, now);
    return companyId;
  });
  return { created: true, companyId, accounts: await listAccounts(db, companyId) };
}

async function createPeople(tx: Tx, passwordHash: string): Promise<{ companyId: number; people: People }> {
  const { company_id: companyId, user: admin } = await signup(tx, {
    company_name: DEMO_COMPANY_NAME,
    company_password: DEMO_COMPANY_PASSWORD,
    email: ADMIN_EMAIL,
    password: DEMO_PASSWORD,
  });
  // Signing up asks for no name: an admin adds theirs afterwards by editing their own user, as here.
  // Nobody here chose a language: like a user an admin adds, the demo admin takes their device's at sign-in.
  await updateUserRow(tx, companyId, admin.id, { fullName: ADMIN_NAME, languageChosen: false });
  const people = {} as People;
  for (const manager of MANAGERS) {
    people[manager.key] = await addUser(tx, companyId, passwordHash, { ...manager, role: 'manager', managerId: null });
  }
  for (const member of TEAM_MEMBERS) {
    const managerId = people[member.manager];
    people[member.key] = await addUser(tx, companyId, passwordHash, { ...member, role: 'team_member', mobileNumber: null, managerId });
    await tx.insert(teamMembers).values({ companyId, userId: people[member.key], managerId, performanceScore: 0 });
  }
  return { companyId, people };
}

async function addUser(
  tx: Tx,
  companyId: number,
  passwordHash: string,
  person: { key: PersonKey; fullName: string; role: Role; designation: string; mobileNumber: string | null; managerId: number | null },
): Promise<number> {
  const number = await takeNextUserNumber(tx, companyId);
  const { id } = await insertUser(tx, {
    companyId,
    email: emailOf(person.key),
    fullName: person.fullName,
    passwordHash,
    role: person.role,
    code: userCode(person.role, number),
    designation: person.designation,
    mobileNumber: person.mobileNumber,
    managerId: person.managerId,
  });
  return id;
}

/** Answers each subtask's id by name, for the notifications that point at them. */
async function createProjects(tx: Tx, companyId: number, people: People, now: Date): Promise<Map<string, number>> {
  const subtaskIds = new Map<string, number>();
  for (const plan of PROJECTS) {
    const managerId = people[plan.manager];
    const [project] = await tx
      .insert(projects)
      .values({ companyId, name: plan.name, description: plan.description, status: plan.status, managerId, startDate: dayFrom(now, plan.start), endDate: dayFrom(now, plan.end) })
      .returning({ id: projects.id });
    const context = { companyId, projectId: project!.id, managerId, people, createdAt: timeFrom(now, -plan.tasksCreatedDaysAgo), now };
    for (const task of plan.majorTasks) {
      for (const subtask of await createMajorTask(tx, task, context)) subtaskIds.set(subtask.name, subtask.id);
    }
  }
  return subtaskIds;
}

type TaskContext = { companyId: number; projectId: number; managerId: number; people: People; createdAt: Date; now: Date };

/** The project's manager wrote the major task and assigned its subtasks. */
async function createMajorTask(tx: Tx, plan: ProjectPlan['majorTasks'][number], context: TaskContext) {
  // Like a major task created through the API: due on the latest of its subtasks' due dates.
  const dueDate = dayFrom(context.now, Math.max(...plan.subtasks.map((subtask) => subtask.due)));
  const [majorTask] = await tx
    .insert(majorTasks)
    .values({ companyId: context.companyId, projectId: context.projectId, name: plan.name, description: plan.description, dueDate, createdById: context.managerId, createdAt: context.createdAt })
    .returning({ id: majorTasks.id });
  const rows = plan.subtasks.map((subtask) => subtaskRow(subtask, majorTask!.id, context));
  return tx.insert(subtasks).values(rows).returning({ id: subtasks.id, name: subtasks.name });
}

function subtaskRow(plan: SubtaskPlan, majorTaskId: number, context: TaskContext) {
  const submittedAt = plan.sentDaysAgo === undefined ? null : timeFrom(context.now, -plan.sentDaysAgo);
  return {
    companyId: context.companyId,
    majorTaskId,
    name: plan.name,
    description: '',
    assignedToId: context.people[plan.assignee],
    assignedById: context.managerId,
    dueDate: dayFrom(context.now, plan.due),
    status: plan.status,
    priority: plan.priority,
    createdAt: context.createdAt,
    submittedAt,
    completedAt: plan.status === 'completed' && submittedAt ? new Date(submittedAt.getTime() + DAY_MS) : null,
  };
}

async function createNotifications(tx: Tx, companyId: number, people: People, subtaskIds: Map<string, number>, now: Date) {
  for (const plan of NOTIFICATIONS) {
    const createdAt = timeFrom(now, -plan.daysAgo);
    const planParams = notificationParams(plan, people, now);
    const [notification] = await tx
      .insert(notifications)
      .values({
        companyId,
        type: plan.type,
        message: englishText(plan.type, planParams),
        params: planParams,
        createdBy: plan.createdBy === 'System' ? 'System' : emailOf(plan.createdBy),
        subtaskId: subtaskIds.get(plan.subtask),
        createdAt,
      })
      .returning({ id: notifications.id });
    await tx.insert(notificationRecipients).values(
      plan.recipients.map((recipient) => ({
        companyId,
        notificationId: notification!.id,
        userId: people[recipient],
        isRead: plan.read,
        readAt: plan.read ? now : null,
        createdAt,
      })),
    );
  }
}

/** The seeded accounts still active; users added later through the app are not ours to print a password for. */
function listAccounts(db: Db, companyId: number): Promise<DemoAccount[]> {
  const seededEmails = [ADMIN_EMAIL, ...MANAGERS.map((manager) => emailOf(manager.key)), ...TEAM_MEMBERS.map((member) => emailOf(member.key))];
  return db
    .select({ role: users.role, email: users.email, full_name: users.fullName })
    .from(users)
    .where(and(eq(users.companyId, companyId), isNull(users.deletedAt), inArray(users.email, seededEmails)))
    .orderBy(asc(users.id));
}

/** A calendar date in UTC, `days` from now, as the API carries dates. */
function dayFrom(now: Date, days: number): string {
  return timeFrom(now, days).toISOString().slice(0, 10);
}

function timeFrom(now: Date, days: number): Date {
  return new Date(now.getTime() + days * DAY_MS);
}
