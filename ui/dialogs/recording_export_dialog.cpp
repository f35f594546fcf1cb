#include "ui/dialogs/recording_export_dialog.hpp"

#include "ui/dialogs/error_label.hpp"
#include "ui/dialogs/file_dialog_folder.hpp"
#include "ui/dialogs/utc_time_range.hpp"
#include "ui/models/mission_tree_model.hpp"
#include "ui/models/parameter_choice_model.hpp"
#include "ui/models/tones.hpp"
#include "ui/text/number_format.hpp"

#include <QCheckBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace telestation::ui {

RecordingExportDialog::RecordingExportDialog(const mdb::MissionDatabase& db, Recording recording, QWidget* parent)
    : QDialog(parent), m_recording(std::move(recording))
{
    setObjectName(QStringLiteral("recordingExportDialog"));
    setWindowTitle(tr("Export recording to CSV"));

    // Records: which segments, which times.
    auto* records = new QGroupBox(tr("Records"), this);
    std::uint64_t packets = 0;
    for (const auto& s : m_recording.segments)
        packets += s.packets;
    const auto count = static_cast<int>(m_recording.segments.size());
    const QString which = m_recording.selected
        ? (count == 1 ? tr("1 selected segment") : tr("%1 selected segments").arg(count))
        : (count == 1 ? tr("The one segment") : tr("All %1 segments").arg(count));
    auto* what = new QLabel(tr("%1 of %2, %3 packets").arg(which, m_recording.directory, countText(packets)), records);
    what->setObjectName(QStringLiteral("segmentsLabel"));
    what->setWordWrap(true);
    what->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_range = new UtcTimeRange(records);
    m_range->setSpan(m_recording.segments);
    auto* recordsLayout = new QGridLayout(records);
    recordsLayout->addWidget(what, 0, 0, 1, 5);
    recordsLayout->addWidget(m_range->check(), 1, 0);
    recordsLayout->addWidget(m_range->from(), 1, 1);
    recordsLayout->addWidget(new QLabel(tr("to"), records), 1, 2);
    recordsLayout->addWidget(m_range->to(), 1, 3);
    recordsLayout->setColumnStretch(4, 1);

    // Parameters: the mission tree with check boxes, filtered as the mission browser filters it.
    auto* parameters = new QGroupBox(tr("Parameters"), this);
    m_tree = new MissionTreeModel(this);
    m_tree->setDatabase(&db);
    m_choice = new ParameterChoiceModel(m_tree, this);
    m_filterModel = new MissionTreeFilter(this);
    m_filterModel->setSourceModel(m_choice);
    m_filter = new QLineEdit(parameters);
    m_filter->setObjectName(QStringLiteral("parameterFilter"));
    m_filter->setPlaceholderText(tr("Filter: name, units or description"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_filterModel->setFilterFixedString(text.trimmed());
        if (!text.trimmed().isEmpty())
            m_view->expandAll();
    });
    m_checkShown = new QPushButton(tr("Check shown"), parameters);
    m_checkShown->setObjectName(QStringLiteral("checkShownButton"));
    m_checkShown->setToolTip(tr("Check every parameter the filter shows"));
    m_checkShown->setAutoDefault(false);
    connect(m_checkShown, &QPushButton::clicked, this, &RecordingExportDialog::checkShown);
    auto* uncheck = new QPushButton(tr("Uncheck all"), parameters);
    uncheck->setObjectName(QStringLiteral("uncheckAllButton"));
    uncheck->setAutoDefault(false);
    connect(uncheck, &QPushButton::clicked, this, [this] { m_choice->setChosen({}); });
    m_view = new QTreeView(parameters);
    m_view->setObjectName(QStringLiteral("parameterTree"));
    m_view->setModel(m_filterModel);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setToolTip(tr("Check parameters, or a packet for all of its parameters"));
    for (int c = 0; c < MissionTreeModel::ColumnCount; ++c)
        m_view->setColumnHidden(c, c != MissionTreeModel::Name && c != MissionTreeModel::Units
                                       && c != MissionTreeModel::Description);
    m_view->header()->setStretchLastSection(true);
    // The name column takes the longest name (within reason) beside its box, one level in.
    int nameWidth = 0;
    for (const auto& packet : db.packets)
        for (const auto& parameter : packet.parameters)
            nameWidth = std::max(nameWidth, m_view->fontMetrics().horizontalAdvance(QString::fromStdString(parameter.name)));
    const int box = m_view->style()->pixelMetric(QStyle::PM_IndicatorWidth) + 8;
    m_view->header()->resizeSection(MissionTreeModel::Name, std::min(nameWidth, 320) + box + 2 * m_view->indentation() + 16);
    m_view->header()->resizeSection(MissionTreeModel::Units,
                                    m_view->fontMetrics().horizontalAdvance(QStringLiteral("deg/s/s")) + 24);
    m_chosen = new QLabel(parameters);
    m_chosen->setObjectName(QStringLiteral("chosenLabel"));
    auto* filterRow = new QHBoxLayout;
    filterRow->addWidget(m_filter, 1);
    filterRow->addWidget(m_checkShown);
    filterRow->addWidget(uncheck);
    auto* parametersLayout = new QVBoxLayout(parameters);
    parametersLayout->addLayout(filterRow);
    parametersLayout->addWidget(m_view, 1);
    parametersLayout->addWidget(m_chosen);

    // Layout.
    auto* layoutBox = new QGroupBox(tr("Layout"), this);
    m_long = new QRadioButton(tr("Long: one row per sample (time, packet, parameter, raw, converted, "
                                 "calibrated, limit)"),
                              layoutBox);
    m_long->setObjectName(QStringLiteral("longButton"));
    m_long->setChecked(true);
    m_wide = new QRadioButton(tr("Wide: one row per time, a column per parameter (calibrated values)"), layoutBox);
    m_wide->setObjectName(QStringLiteral("wideButton"));
    auto* layoutLayout = new QVBoxLayout(layoutBox);
    layoutLayout->addWidget(m_long);
    layoutLayout->addWidget(m_wide);

    // Output file.
    auto* outputBox = new QGroupBox(tr("Output file"), this);
    m_output = new QLineEdit(outputBox);
    m_output->setObjectName(QStringLiteral("outputEdit"));
    m_output->setText(FileDialogFolder(FileDialogFolder::kRecordingExports).suggestion(defaultFileName()));
    auto* choose = new QPushButton(tr("Choose…"), outputBox);
    choose->setObjectName(QStringLiteral("chooseOutputButton"));
    choose->setAutoDefault(false);
    connect(choose, &QPushButton::clicked, this, &RecordingExportDialog::chooseOutput);
    m_outputNote = new QLabel(outputBox);
    m_outputNote->setObjectName(QStringLiteral("outputNote"));
    m_outputNote->setWordWrap(true);
    tone::setTextColour(m_outputNote, tone::kMutedText);
    auto* outputLayout = new QGridLayout(outputBox);
    outputLayout->addWidget(m_output, 0, 0);
    outputLayout->addWidget(choose, 0, 1);
    outputLayout->addWidget(m_outputNote, 1, 0, 1, 2);

    m_reason = newErrorLabel(this, QStringLiteral("reasonLabel"));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setObjectName(QStringLiteral("okButton"));
    m_ok->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &RecordingExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(records);
    layout->addWidget(parameters, 1);
    layout->addWidget(layoutBox);
    layout->addWidget(outputBox);
    layout->addWidget(m_reason);
    layout->addWidget(buttons);

    connect(m_range, &UtcTimeRange::changed, this, &RecordingExportDialog::validate);
    connect(m_choice, &ParameterChoiceModel::chosenChanged, this, &RecordingExportDialog::validate);
    connect(m_output, &QLineEdit::textChanged, this, &RecordingExportDialog::validate);
    resize(760, 640);
    m_filter->setFocus(); // the quickest way to a parameter: type part of its name
    validate();
}

RecordingExportDialog::~RecordingExportDialog() = default;

void RecordingExportDialog::setRange(const QDateTime& from, const QDateTime& to)
{
    m_range->set(true, from, to);
}

void RecordingExportDialog::setDatabasePath(const QString& path)
{
    m_databasePath = path;
    validate();
}

void RecordingExportDialog::setChoices(const RecordingExportRequest& previous)
{
    QStringList names;
    for (const auto& name : previous.parameters)
        names << QString::fromStdString(name);
    m_choice->setChosen(names);
    (previous.format == archive::OutputFormat::AlignedCsv ? m_wide : m_long)->setChecked(true);
    if (!previous.outputPath.isEmpty())
        m_output->setText(previous.outputPath);
    validate();
}

RecordingExportRequest RecordingExportDialog::request() const
{
    RecordingExportRequest r;
    r.directory = m_recording.directory;
    if (m_recording.selected)
        for (const auto& s : m_recording.segments)
            r.segments.push_back(s.file);
    if (m_range->isOn()) {
        r.fromNs = m_range->fromNs();
        r.toNs = m_range->toNs();
    }
    for (const QString& name : m_choice->chosen())
        r.parameters.push_back(name.toStdString());
    r.format = m_wide->isChecked() ? archive::OutputFormat::AlignedCsv : archive::OutputFormat::Csv;
    r.outputPath = m_output->text().trimmed();
    r.databasePath = m_databasePath;
    return r;
}

QString RecordingExportDialog::problem() const
{
    if (m_choice->chosenCount() == 0)
        return tr("Choose at least one parameter: check it, or check a packet for all of its parameters.");
    if (m_range->isBackwards())
        return tr("The time range ends before it starts.");
    const QString output = m_output->text().trimmed();
    if (output.isEmpty())
        return tr("Choose the output file.");
    if (!QFileInfo(output).isAbsolute())
        return tr("The output file needs a full path (Choose… picks one).");
    if (const QString folder = QFileInfo(output).absolutePath(); !QFileInfo(folder).isDir())
        return tr("The folder %1 does not exist.").arg(folder);
    return RecordingExport::outputConflict(output, m_recording.directory, m_databasePath);
}

QString RecordingExportDialog::shownProblem() const
{
    return m_reason->isHidden() ? QString() : m_reason->text();
}

void RecordingExportDialog::validate()
{
    const int chosen = m_choice->chosenCount();
    m_chosen->setText(chosen == 0 ? tr("No parameter chosen")
                          : chosen == 1 ? tr("1 parameter chosen")
                                        : tr("%1 parameters chosen").arg(countText(static_cast<std::uint64_t>(chosen))));
    const QFileInfo output(m_output->text().trimmed());
    m_outputNote->setText(output.isAbsolute() && output.isFile()
                              ? tr("This file exists: it is replaced once the export has succeeded.")
                              : QString());
    m_outputNote->setVisible(!m_outputNote->text().isEmpty());
    const QString why = m_tried ? problem() : QString();
    m_reason->setText(why);
    m_reason->setVisible(!why.isEmpty());
}

void RecordingExportDialog::accept()
{
    m_tried = true;
    validate();
    if (!problem().isEmpty())
        return;
    FileDialogFolder(FileDialogFolder::kRecordingExports).remember(m_output->text().trimmed());
    QDialog::accept();
}

void RecordingExportDialog::chooseOutput()
{
    const QString current = m_output->text().trimmed();
    const QString path = FileDialogFolder::saveFile(this, FileDialogFolder::kRecordingExports, tr("Export to CSV"),
                                                    current.isEmpty() ? defaultFileName() : current,
                                                    tr("CSV files (*.csv);;All files (*)"));
    if (!path.isEmpty())
        m_output->setText(path);
}

void RecordingExportDialog::checkShown()
{
    // Every parameter row the filter lets through (a packet's rows as shown under it).
    for (int p = 0; p < m_filterModel->rowCount(); ++p) {
        const QModelIndex packet = m_filterModel->index(p, MissionTreeModel::Name);
        for (int q = 0; q < m_filterModel->rowCount(packet); ++q)
            m_choice->setChecked(m_filterModel->mapToSource(m_filterModel->index(q, MissionTreeModel::Name, packet)), true);
    }
}

QString RecordingExportDialog::defaultFileName() const
{
    const QString name = QFileInfo(m_recording.directory).fileName();
    return (name.isEmpty() ? QStringLiteral("recording") : name) + QStringLiteral(".csv");
}

} // namespace telestation::ui
